import { Temporal } from 'temporal-polyfill';
import { percentageOf } from '../../../domain/goal/state.ts';
import { motivationalMessage } from '../../../domain/gamification/motivation.ts';
import { daysLeftInWeek } from '../../../domain/shared/days-left.ts';
import type { GoalsTable } from '../../../projections/goals/goal-table.ts';

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

/**
 * A goal as the API answers it (§3 Goal): progress in km or runs, the whole percentage the card shows, the
 * motivational message (§9), and what the goal-complete celebration needs (completed_at, completed_progress).
 */
export function goalJson(goal: GoalsTable, now: Date) {
  const percentage = percentageOf(goal.progress, goal.target_value);
  const live = goal.status === 'active' || goal.status === 'completed';
  return {
    id: goal.id,
    type: goal.type,
    target_value: goal.target_value,
    entered_value: goal.entered_value,
    entered_unit: goal.entered_unit,
    status: goal.status,
    progress: goal.progress,
    percentage,
    message: motivationalMessage(percentage),
    period_start: goal.period_start,
    period_end: goal.period_end,
    time_zone: goal.time_zone,
    stake_amount_cents: goal.stake_amount_cents,
    charity_id: goal.charity_id,
    days_left: live ? daysLeftInWeek(Temporal.Instant.fromEpochMilliseconds(now.getTime()), goal.time_zone) : null,
    created_at: iso(goal.created_at),
    activated_at: iso(goal.activated_at),
    completed_at: iso(goal.completed_at),
    completed_progress: goal.completed_progress,
    closed_at: iso(goal.closed_at),
    canceled_at: iso(goal.canceled_at),
    stake_forfeited: goal.stake_forfeited,
  };
}

/** A goal in the history list, where progress is `{ current, percentage }` (§3). */
export function goalHistoryJson(goal: GoalsTable, now: Date) {
  const json = goalJson(goal, now);
  return { ...json, progress: { current: json.progress, percentage: json.percentage } };
}
