import { Temporal } from 'temporal-polyfill';
import { type CountableRun, countOnce } from '../run/count-once.ts';
import { stakeDistanceBeforeKm } from '../run/counting.ts';
import { round2 } from '../shared/units.ts';
import { isWithinWeek, weekStartingOn } from '../shared/week.ts';
import type { GoalDetails } from './events.ts';

/** A run as goal progress sees it: the cross-run facts and whose it is. */
export interface GoalRun extends CountableRun {
  readonly userId: string;
}

/**
 * A goal's progress from the user's runs (the value for RecordProgress, and the read model's figure): the runs that
 * started inside the goal's week in the goal's own zone, counted by the run policy — a staked goal counts only what
 * may move money (run/counting.ts), only once per stretch of time and per recording (run/count-once.ts), and only
 * what was run before the week ended; a free goal gives the benefit of the doubt. km (2 decimals) or a number of
 * runs. Pass the week's runs with their neighbours (runs they overlap or repeat), wherever those started.
 */
export function goalProgress(
  goal: Pick<GoalDetails, 'userId' | 'type' | 'stakeAmountCents' | 'weekStart' | 'timeZone'>,
  runs: readonly GoalRun[],
): number {
  const week = weekStartingOn(goal.weekStart, goal.timeZone);
  const staked = goal.stakeAmountCents > 0;
  const own = runs.filter((run) => run.userId === goal.userId);
  const counted = countOnce(own, staked ? 'staked_goal' : 'free_goal_or_xp');
  const weekEndMs = week.end.epochMilliseconds;
  const kmOf = (run: GoalRun) => {
    const km = counted.get(run.runId)?.km ?? 0;
    return staked && km > 0 ? Math.min(km, stakeDistanceBeforeKm(run.verification, weekEndMs)) : km;
  };
  const inWeek = own.filter((run) => isWithinWeek(Temporal.Instant.fromEpochMilliseconds(run.startedAtMs), week));
  if (goal.type === 'count') return inWeek.filter((run) => kmOf(run) > 0).length;
  return round2(inWeek.reduce((sum, run) => sum + kmOf(run), 0));
}
