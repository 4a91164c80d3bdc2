import { addDays, compareDates } from './dates.ts';

/** How a week with a goal ended. Canceled goals count as missed: the stake is forfeited too (§4). */
export type WeekResult = 'completed' | 'missed';

/** The settled result of one week, identified by its Monday 'YYYY-MM-DD'. */
export interface WeekOutcome {
  readonly weekStart: string;
  readonly result: WeekResult;
}

/** A user's streak in weeks (§3 user_streaks). */
export interface Streak {
  readonly current: number;
  readonly longest: number;
  /** Monday of the most recent completed week, or null. */
  readonly lastCompletedWeek: string | null;
}

/** The streak of a new user. */
export const NO_STREAK: Streak = { current: 0, longest: 0, lastCompletedWeek: null };

/** Mondays ('YYYY-MM-DD') of weeks the runner paused with notice (domain/goal/pause-horizon.ts). */
export type PausedWeeks = ReadonlySet<string>;

const NO_PAUSES: PausedWeeks = new Set();

/**
 * Whether every week strictly between the weeks starting `from` and `to` was paused: such weeks are skipped, so a
 * paused week neither breaks the streak nor adds to it (issue 25). With no pauses: whether `to` directly follows.
 */
function onlyPausedBetween(from: string, to: string, paused: PausedWeeks): boolean {
  for (let week = addDays(from, 7); compareDates(week, to) < 0; week = addDays(week, 7)) {
    if (!paused.has(week)) return false;
  }
  return true;
}

/**
 * The streak after one more week outcome, applied in calendar order (what a projection does on each settlement).
 * A completed week extends the streak only if it directly follows the last completed week, so a week with no goal
 * at all breaks the streak just as a missed week does: a streak means consecutive weeks with a goal met.
 * Outcomes for a week at or before the last completed one are ignored, which makes replays harmless.
 */
export function streakAfter(streak: Streak, outcome: WeekOutcome): Streak {
  return streakAfterSkipping(NO_PAUSES)(streak, outcome);
}

/**
 * `streakAfter` for a runner with paused weeks: weeks in `paused` are skipped, so a completed week after only paused
 * weeks still directly follows the last completed one (a reducer, so `reduce` cannot pass its index as the pauses).
 */
export const streakAfterSkipping =
  (paused: PausedWeeks) =>
  (streak: Streak, outcome: WeekOutcome): Streak => {
    const last = streak.lastCompletedWeek;
    if (last !== null && compareDates(outcome.weekStart, last) <= 0) return streak;
    if (outcome.result === 'missed') return { ...streak, current: 0 };
    const continues = last !== null && streak.current > 0 && onlyPausedBetween(last, outcome.weekStart, paused);
    const current = continues ? streak.current + 1 : 1;
    return { current, longest: Math.max(streak.longest, current), lastCompletedWeek: outcome.weekStart };
  };

/**
 * The streak as seen during the week starting `currentWeekStart`: the current streak survives while this week is
 * in progress (its last completed week is this one or last one) and drops to 0 once a whole week passed without
 * a completed goal. Longest never changes. A paused week is not such a week: the streak waits across it.
 */
export function streakAsOf(streak: Streak, currentWeekStart: string, paused: PausedWeeks = NO_PAUSES): Streak {
  const last = streak.lastCompletedWeek;
  const alive =
    last !== null &&
    (compareDates(addDays(last, 7), currentWeekStart) >= 0 || onlyPausedBetween(last, currentWeekStart, paused));
  return alive ? streak : { ...streak, current: 0 };
}

/**
 * The streak from a user's whole history of week outcomes, in any order. When a week appears twice (a goal
 * canceled and replaced in the same week) a completion wins. With `currentWeekStart`, see `streakAsOf`.
 */
export function computeStreak(
  outcomes: readonly WeekOutcome[],
  currentWeekStart?: string,
  paused: PausedWeeks = NO_PAUSES,
): Streak {
  const byWeek = new Map<string, WeekResult>();
  for (const o of outcomes) if (byWeek.get(o.weekStart) !== 'completed') byWeek.set(o.weekStart, o.result);
  const ordered = [...byWeek.entries()].sort(([a], [b]) => compareDates(a, b));
  const after = streakAfterSkipping(paused);
  const streak = ordered.reduce((s, [weekStart, result]) => after(s, { weekStart, result }), NO_STREAK);
  return currentWeekStart === undefined ? streak : streakAsOf(streak, currentWeekStart, paused);
}
