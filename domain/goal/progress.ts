import { Temporal } from 'temporal-polyfill';
import { round2 } from '../shared/units.ts';
import { isWithinWeek, weekStartingOn } from '../shared/week.ts';
import { countedDistanceKm, countsAsRun } from '../run/counting.ts';
import type { RunRecord } from '../run/events.ts';
import type { GoalDetails } from './events.ts';

/**
 * A goal's progress from the user's runs (the value for RecordProgress): the runs that started inside the goal's
 * week in the goal's own zone, counted by the run policy — a staked goal counts only what may move money
 * (run/counting.ts), a free goal gives the benefit of the doubt. km (2 decimals) or a number of runs.
 */
export function goalProgress(goal: GoalDetails, runs: readonly RunRecord[]): number {
  const week = weekStartingOn(goal.weekStart, goal.timeZone);
  const context = goal.stakeAmountCents > 0 ? 'staked_goal' : 'free_goal_or_xp';
  const inWeek = runs.filter(
    (run) => run.userId === goal.userId && isWithinWeek(Temporal.Instant.from(run.startedAt), week),
  );
  if (goal.type === 'count') return inWeek.filter((run) => countsAsRun(run.verification, context)).length;
  return round2(inWeek.reduce((sum, run) => sum + countedDistanceKm(run.verification, context), 0));
}
