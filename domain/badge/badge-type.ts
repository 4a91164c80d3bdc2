import { z } from 'zod';

/** The 12 badge types of §3, in the order the badge grid shows them. */
export const BadgeType = z.enum([
  'first_run',
  'first_goal',
  'streak_week_1',
  'streak_week_4',
  'streak_week_8',
  'distance_100',
  'half_marathon',
  'perfect_week',
  'weekend_warrior',
  'early_bird',
  'halloween_run',
  'comeback_kid',
]);
/** One of the 12 badge types. */
export type BadgeType = z.infer<typeof BadgeType>;

/** Every badge type, in display order. */
export const BADGE_TYPES: readonly BadgeType[] = BadgeType.options;
