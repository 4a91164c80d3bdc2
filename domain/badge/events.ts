import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';
import { BadgeType } from './badge-type.ts';

/** A user earned a badge (at most once per type). */
export const BadgeEarned = z.object({
  type: z.literal('BadgeEarned'),
  data: z.object({ userId: entityId, badgeId: entityId, badgeType: BadgeType, earnedAt: isoInstant }),
});
/** A user earned a badge. */
export type BadgeEarned = z.infer<typeof BadgeEarned>;

/** The user closed the badge's celebration pop-up (at most once). */
export const BadgeCelebrated = z.object({
  type: z.literal('BadgeCelebrated'),
  data: z.object({ userId: entityId, badgeType: BadgeType, celebratedAt: isoInstant }),
});
/** The user closed the badge's celebration pop-up. */
export type BadgeCelebrated = z.infer<typeof BadgeCelebrated>;

/** Every event of a user's badge stream (`badges-<userId>`): the badge decider's schema. */
export const BadgeEvent = z.discriminatedUnion('type', [BadgeEarned, BadgeCelebrated]);
/** Every event of a user's badge stream. */
export type BadgeEvent = z.infer<typeof BadgeEvent>;
