import { Temporal } from 'temporal-polyfill';
import { badgeToCelebrate } from '../../../../domain/badge/celebration.ts';
import { CELEBRATION_LOOKUP_LIMIT } from '../../../../domain/badge/policy.ts';
import { formatDollars } from '../../../../domain/shared/money.ts';

/** How many uncelebrated badges the pick looks at (§9), so the app asks the server for no more. */
export const BADGE_LOOKUP_LIMIT = CELEBRATION_LOOKUP_LIMIT;

/** §9: the celebration appears after 800 ms, the badge celebration 500 ms after that. */
export const GOAL_CELEBRATION_DELAY_MS = 800;
export const BADGE_CELEBRATION_DELAY_MS = GOAL_CELEBRATION_DELAY_MS + 500;

export interface BadgeCandidate {
  readonly id: string;
  readonly earned_at: string;
  readonly celebrated_at: string | null;
}

/**
 * The badge to celebrate now, by the domain's pick (domain/badge/celebration.ts: the newest of the first 5
 * uncelebrated badges earned within 7 days). A badge remembered locally counts as celebrated, so a failed celebrate
 * call does not bring the pop-up back on every visit.
 */
export function pickBadgeToCelebrate<T extends BadgeCandidate>(
  badges: readonly T[],
  nowMs: number,
  celebratedLocally: ReadonlySet<string>,
): T | null {
  const uncelebrated = badges
    .filter((b) => b.celebrated_at === null)
    .map((badge) => ({ badge, earnedAt: badge.earned_at }));
  const picked = badgeToCelebrate(uncelebrated, Temporal.Instant.fromEpochMilliseconds(nowMs), (c) =>
    celebratedLocally.has(c.badge.id),
  );
  return picked?.badge ?? null;
}

/** Whether the goal-complete celebration is due: the goal reached 100% and was not celebrated before (§4). */
export function goalNeedsCelebration(
  goal: { readonly id: string; readonly percentage: number } | null | undefined,
  celebratedLocally: ReadonlySet<string>,
): boolean {
  return !!goal && goal.percentage >= 100 && !celebratedLocally.has(goal.id);
}

/**
 * The goal-complete celebration's message: a staked goal's hold is released; a free goal had no stake, so the message
 * does not mention one.
 */
export function goalCelebrationMessage(stakeAmountCents: number): string {
  return stakeAmountCents > 0
    ? `Your ${formatDollars(stakeAmountCents)} hold is released and your streak keeps growing. Keep it up!`
    : 'Your streak keeps growing. Keep it up!';
}
