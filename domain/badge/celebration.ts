import { Temporal } from 'temporal-polyfill';
import { CELEBRATION_LOOKUP_LIMIT, CELEBRATION_WINDOW_DAYS } from './policy.ts';

/** An uncelebrated badge as the celebration pick sees it. */
export interface CelebrationCandidate {
  /** ISO-8601 instant the badge was earned. */
  readonly earnedAt: string;
}

const earnedAtMs = (candidate: CelebrationCandidate): number => {
  try {
    return Temporal.Instant.from(candidate.earnedAt).epochMilliseconds;
  } catch {
    return Number.NaN; // never within the window: an unreadable date is not celebrated
  }
};

/**
 * The badge whose celebration pop-up to show now (§4, §9): among the first 5 uncelebrated badges (as GET
 * /me/badges?uncelebrated=true lists them, newest first; sorted again here so the order does not matter), the
 * newest one earned within the last 7 days that was not `celebratedElsewhere` (a device remembers the ones it
 * showed, so a failed celebrate call does not bring the pop-up back); null when there is none.
 */
export function badgeToCelebrate<T extends CelebrationCandidate>(
  uncelebrated: readonly T[],
  now: Temporal.Instant,
  celebratedElsewhere: (badge: T) => boolean = () => false,
): T | null {
  const windowMs = CELEBRATION_WINDOW_DAYS * 24 * 60 * 60 * 1000;
  const newestFirst = uncelebrated
    .slice(0, CELEBRATION_LOOKUP_LIMIT)
    .map((badge) => ({ badge, earnedMs: earnedAtMs(badge) }))
    .sort((a, b) => b.earnedMs - a.earnedMs);
  const picked = newestFirst.find(
    ({ badge, earnedMs }) =>
      !celebratedElsewhere(badge) && Number.isFinite(earnedMs) && now.epochMilliseconds - earnedMs <= windowMs,
  );
  return picked?.badge ?? null;
}
