/** Only badges earned this recently are celebrated, and only this many uncelebrated ones are looked at (§9). */
export const BADGE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
export const BADGE_LOOKUP_LIMIT = 5;

/** §9: the celebration appears after 800 ms, the badge celebration 500 ms after that. */
export const GOAL_CELEBRATION_DELAY_MS = 800;
export const BADGE_CELEBRATION_DELAY_MS = GOAL_CELEBRATION_DELAY_MS + 500;

export interface BadgeCandidate {
  readonly id: string;
  readonly earned_at: string;
  readonly celebrated_at: string | null;
}

/**
 * The badge to celebrate now (§4): among the first 5 uncelebrated badges (server order is newest first, but the
 * sort makes that not matter), the newest one earned within 7 days. A badge remembered locally counts as
 * celebrated, so a failed celebrate call does not bring the pop-up back on every visit.
 */
export function pickBadgeToCelebrate<T extends BadgeCandidate>(
  badges: readonly T[],
  nowMs: number,
  celebratedLocally: ReadonlySet<string>,
): T | null {
  const newestFirst = badges
    .filter((b) => b.celebrated_at === null)
    .slice(0, BADGE_LOOKUP_LIMIT)
    .sort((a, b) => Date.parse(b.earned_at) - Date.parse(a.earned_at));
  return (
    newestFirst.find((b) => {
      const earned = Date.parse(b.earned_at);
      return !celebratedLocally.has(b.id) && Number.isFinite(earned) && nowMs - earned <= BADGE_WINDOW_MS;
    }) ?? null
  );
}

/** Whether the goal-complete celebration is due: the goal reached 100% and was not celebrated before (§4). */
export function goalNeedsCelebration(
  goal: { readonly id: string; readonly percentage: number } | null | undefined,
  celebratedLocally: ReadonlySet<string>,
): boolean {
  return !!goal && goal.percentage >= 100 && !celebratedLocally.has(goal.id);
}
