import { z } from 'zod';
import { storableString } from './text.ts';

/** A time of day stored with seconds (§3), 'HH:MM:SS' on a 24-hour clock. */
export const timeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'Time must be in HH:MM:SS format');

/** Notification preferences (§3) with the defaults of §9: 18:00 the day before, Wednesday 18:00, Sunday 09:00. */
export const notificationPreferencesSchema = z.object({
  upcoming_goal_enabled: z.boolean().default(true),
  midweek_update_enabled: z.boolean().default(true),
  ending_soon_enabled: z.boolean().default(true),
  upcoming_goal_time: timeOfDaySchema.default('18:00:00'),
  midweek_update_time: timeOfDaySchema.default('18:00:00'),
  ending_soon_time: timeOfDaySchema.default('09:00:00'),
});

/** A user's notification switches and times (§3), as stored and answered. */
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** What a user who never saved preferences gets: the schema's own defaults (§9), for the server and the demo. */
export const DEFAULT_NOTIFICATION_PREFERENCES: Readonly<NotificationPreferences> = Object.freeze(
  notificationPreferencesSchema.parse({}),
);

/** POST /notifications/register (§7). */
export const pushRegistrationSchema = z.object({
  token: storableString({ error: 'A push token is required' }).trim().min(1, 'A push token is required').max(4096),
  platform: z.enum(['ios', 'android', 'web'], { error: 'Platform must be ios, android or web' }),
});

/** POST /notifications/test (§7). */
export const testNotificationSchema = z.object({
  title: storableString().trim().min(1).max(100),
  message: storableString().trim().min(1).max(500),
  type: z.enum(['upcoming_goal', 'midweek_update', 'ending_soon']),
});
