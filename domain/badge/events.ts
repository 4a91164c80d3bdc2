import { z } from 'zod';
import { BadgeType } from './badge-type.ts';

const instant = z.iso.datetime({ offset: true });

/** A user earned a badge (at most once per type). */
export const BadgeEarned = z.object({
  type: z.literal('BadgeEarned'),
  data: z.object({ userId: z.string().min(1), badgeId: z.string().min(1), badgeType: BadgeType, earnedAt: instant }),
});

/** The user closed the badge's celebration pop-up (at most once). */
export const BadgeCelebrated = z.object({
  type: z.literal('BadgeCelebrated'),
  data: z.object({ userId: z.string().min(1), badgeType: BadgeType, celebratedAt: instant }),
});

/** Every event of a user's badge stream. */
export const BadgeEvent = z.discriminatedUnion('type', [BadgeEarned, BadgeCelebrated]);
/** Every event of a user's badge stream. */
export type BadgeEvent = z.infer<typeof BadgeEvent>;
