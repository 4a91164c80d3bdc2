import type { CountedToward } from './verdict-words.ts';

/** A goal as far as what a run counts toward is concerned: its week (instants) and whether money is on it. */
export interface GoalWeek {
  readonly weekStartsAtMs: number;
  readonly weekEndsAtMs: number;
  readonly stakeAmountCents: number;
  /** A canceled goal's week has no goal any more: its runs count toward nothing named. */
  readonly canceled: boolean;
}

/**
 * What a run started at `startedAtMs` counts toward: the stake of its week's goal when that goal has money on it,
 * the free goal of its week, or nothing named (null) in a week without a goal. A run counts toward the week it
 * started in (the week is the goal's own, locked in its time zone: [start, end)). The API's verdict sentence and the
 * web app's (run-verdict.tsx) speak of a stake only when there is one.
 */
export function countedTowardAt(goals: readonly GoalWeek[], startedAtMs: number): CountedToward {
  const goal = goals.find((g) => !g.canceled && g.weekStartsAtMs <= startedAtMs && startedAtMs < g.weekEndsAtMs);
  if (!goal) return null;
  return goal.stakeAmountCents > 0 ? 'stake' : 'goal';
}
