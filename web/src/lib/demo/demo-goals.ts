import { Temporal } from 'temporal-polyfill';
import { motivationalMessage } from '../../../../domain/gamification/motivation.ts';
import { type GoalRun, goalProgress } from '../../../../domain/goal/progress.ts';
import { isTargetReached, percentageOf } from '../../../../domain/goal/state.ts';
import { countableRun } from '../../../../domain/run/count-once.ts';
import { daysLeftInWeek } from '../../../../domain/shared/days-left.ts';
import { weekStartingOn, weekStartOf } from '../../../../domain/shared/week.ts';
import type { Goal, GoalStatus } from '../api-types.ts';
import type { DemoGoal, DemoRun, DemoState } from './demo-data.ts';
import { DEMO_USER_ID } from './demo-route.ts';
import { demoRecordedAt, demoVerification } from './demo-verdict.ts';

/** A demo run as goal progress sees it: its claimed time, when it was saved and its verdict. */
export function demoGoalRun(run: DemoRun): GoalRun {
  const recorded = {
    runId: run.id,
    startedAt: run.started_at,
    durationSec: run.duration_sec,
    verification: run.verification ?? demoVerification(run),
  };
  return { ...countableRun(recorded, demoRecordedAt(run)), userId: DEMO_USER_ID };
}

/**
 * A demo goal as the API would answer it, its progress counted from the demo runs by the server's own rule
 * (domain/goal/progress.ts: the week in the goal's zone, the run policy for a staked or a free goal, each run once).
 */
export function demoGoalJson(state: DemoState, goal: DemoGoal, nowMs: number): Goal {
  const now = Temporal.Instant.fromEpochMilliseconds(nowMs);
  const progress = goalProgress(
    {
      userId: DEMO_USER_ID,
      type: goal.type,
      stakeAmountCents: goal.stake_amount_cents,
      weekStart: goal.week_start,
      timeZone: state.timezone,
    },
    state.runs.map(demoGoalRun),
  );
  const percentage = percentageOf(progress, goal.target_value);
  const thisWeek = weekStartOf(now, state.timezone);
  let status: GoalStatus;
  if (goal.canceled) status = 'canceled';
  else if (goal.week_start > thisWeek) status = 'upcoming';
  else if (isTargetReached(progress, goal.target_value)) status = 'completed';
  else status = goal.week_start === thisWeek ? 'active' : 'missed';
  const live = goal.week_start === thisWeek && !goal.canceled;
  const week = weekStartingOn(goal.week_start, state.timezone);
  const settled = goal.week_start < thisWeek && !goal.canceled;
  return {
    id: goal.id,
    type: goal.type,
    target_value: goal.target_value,
    entered_value: goal.target_value,
    entered_unit: 'km',
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
    activated_at: goal.week_start <= thisWeek && !goal.canceled ? week.start.toString() : null,
    completed_at: status === 'completed' ? now.toString() : null,
    completed_progress: status === 'completed' ? progress : null,
    closed_at: settled ? week.end.toString() : null,
    canceled_at: goal.canceled ? goal.created_at : null,
    stake_forfeited: false,
  };
}
