import { type Kysely, sql } from 'kysely';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from '../../../domain/validation/notifications.ts';

/** §3 user preferences as the API answers them. */
export type Preferences = { distance_unit: 'km' | 'mi'; default_charity_id: string | null; remember_charity: boolean };

/** Defaults (§9 "Units", §3). */
export const DEFAULT_PREFERENCES: Preferences = {
  distance_unit: 'km',
  default_charity_id: null,
  remember_charity: false,
};

/** The user's preferences, defaults when never saved. */
export async function readPreferences(db: Kysely<object>, userId: string): Promise<Preferences> {
  const { rows } = await sql<Preferences>`
    SELECT distance_unit, default_charity_id, remember_charity FROM user_preferences WHERE user_id = ${userId}`.execute(
    db,
  );
  return rows[0] ?? DEFAULT_PREFERENCES;
}

/** Saves the full preferences row (the route merged the change into the current values). */
export async function writePreferences(db: Kysely<object>, userId: string, p: Preferences, now: Date): Promise<void> {
  await sql`
    INSERT INTO user_preferences (user_id, distance_unit, default_charity_id, remember_charity, updated_at)
    VALUES (${userId}, ${p.distance_unit}, ${p.default_charity_id}, ${p.remember_charity}, ${now})
    ON CONFLICT (user_id) DO UPDATE SET distance_unit = excluded.distance_unit,
      default_charity_id = excluded.default_charity_id, remember_charity = excluded.remember_charity,
      updated_at = excluded.updated_at`.execute(db);
}

const notificationColumns = sql`upcoming_goal_enabled, midweek_update_enabled, ending_soon_enabled, upcoming_goal_time,
  midweek_update_time, ending_soon_time`;

/** The user's notification switches and times, defaults when never saved. */
export async function readNotificationPreferences(
  db: Kysely<object>,
  userId: string,
): Promise<NotificationPreferences> {
  const { rows } = await sql<NotificationPreferences>`
    SELECT ${notificationColumns} FROM user_notification_preferences WHERE user_id = ${userId}`.execute(db);
  return rows[0] ?? DEFAULT_NOTIFICATION_PREFERENCES;
}

/** Saves the full notification preferences row. */
export async function writeNotificationPreferences(
  db: Kysely<object>,
  userId: string,
  p: NotificationPreferences,
  now: Date,
): Promise<void> {
  await sql`
    INSERT INTO user_notification_preferences (user_id, ${notificationColumns}, updated_at)
    VALUES (${userId}, ${p.upcoming_goal_enabled}, ${p.midweek_update_enabled}, ${p.ending_soon_enabled},
      ${p.upcoming_goal_time}, ${p.midweek_update_time}, ${p.ending_soon_time}, ${now})
    ON CONFLICT (user_id) DO UPDATE SET upcoming_goal_enabled = excluded.upcoming_goal_enabled,
      midweek_update_enabled = excluded.midweek_update_enabled, ending_soon_enabled = excluded.ending_soon_enabled,
      upcoming_goal_time = excluded.upcoming_goal_time, midweek_update_time = excluded.midweek_update_time,
      ending_soon_time = excluded.ending_soon_time, updated_at = excluded.updated_at`.execute(db);
}
