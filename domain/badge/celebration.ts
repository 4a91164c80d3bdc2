import { Temporal } from 'temporal-polyfill';
import { compareInstants } from '../gamification/time.ts';
import type { BadgeType } from './badge-type.ts';
import type { BadgeState } from './state.ts';

/** Only badges earned this recently are celebrated (§9: 7 days). */
export const CELEBRATION_WINDOW_DAYS = 7;
/** How many uncelebrated badges are looked at, newest first (§9: up to 5). */
export const CELEBRATION_LOOKUP_LIMIT = 5;

/**
 * The badge whose celebration pop-up to show now (§4): among the 5 newest uncelebrated badges, the newest one earned
 * within the last 7 days; null when there is none.
 */
export function badgeToCelebrate(state: BadgeState, now: string): { badgeType: BadgeType; badgeId: string } | null {
  const cutoff = Temporal.Instant.from(now)
    .subtract({ hours: 24 * CELEBRATION_WINDOW_DAYS })
    .toString();
  const candidates = [...state.badges.entries()]
    .flatMap(([badgeType, b]) =>
      b.status === 'earned' ? [{ badgeType, badgeId: b.badgeId, earnedAt: b.earnedAt }] : [],
    )
    .sort((a, b) => compareInstants(b.earnedAt, a.earnedAt))
    .slice(0, CELEBRATION_LOOKUP_LIMIT);
  const recent = candidates.find((c) => compareInstants(c.earnedAt, cutoff) >= 0);
  return recent ? { badgeType: recent.badgeType, badgeId: recent.badgeId } : null;
}
