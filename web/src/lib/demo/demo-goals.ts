import { Temporal } from 'temporal-polyfill';
import { motivationalMessage } from '../../../../domain/gamification/motivation.ts';
import { isTargetReached, percentageOf } from '../../../../domain/goal/state.ts';
import { daysLeftInWeek } from '../../../../domain/shared/days-left.ts';
import { round2 } from '../../../../domain/shared/units.ts';
import { isWithinWeek, weekStartingOn, weekStartOf } from '../../../../domain/shared/week.ts';
import type { Goal, GoalStatus } from '../api-types.ts';
import type { DemoGoal, DemoState } from './demo-data.ts';

/** A demo goal as the API would answer it, with progress counted from the demo runs by the shared rules. */
export function demoGoalJson(state: DemoState, goal: DemoGoal, nowMs: number): Goal {
  const now = Temporal.Instant.fromEpochMilliseconds(nowMs);
  const week = weekStartingOn(goal.week_start, state.timezone);
  const inWeek = state.runs.filter((r) => isWithinWeek(Temporal.Instant.from(r.started_at), week));
  const progress = goal.type === 'distance' ? round2(inWeek.reduce((sum, r) => sum + r.distance_km, 0)) : inWeek.length;
  const percentage = percentageOf(progress, goal.target_value);
  const thisWeek = weekStartOf(now, state.timezone);
  let status: GoalStatus;
  if (goal.canceled) status = 'canceled';
  else if (goal.week_start > thisWeek) status = 'upcoming';
  else if (isTargetReached(progress, goal.target_value)) status = 'completed';
  else status = goal.week_start === thisWeek ? 'active' : 'missed';
  const live = goal.week_start === thisWeek && !goal.canceled;
  return {
    id: goal.id,
    type: goal.type,
    target_value: goal.target_value,
    status,
    progress,
    percentage,
    message: motivationalMessage(percentage),
    period_start: goal.week_start,
    period_end: Temporal.PlainDate.from(goal.week_start).add({ days: 6 }).toString(),
    time_zone: state.timezone,
    stake_amount_cents: goal.stake_amount_cents,
    charity_id: goal.charity_id,
    days_left: live ? daysLeftInWeek(now, state.timezone) : null,
    created_at: goal.created_at,
    completed_at: status === 'completed' ? now.toString() : null,
  };
}
