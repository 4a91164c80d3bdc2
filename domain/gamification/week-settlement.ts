import { type PausedWeeks, type Streak, streakAfterSkipping, type WeekOutcome } from './streaks.ts';
import { goalXpEntry, streakXpEntry, type XpEntry } from './xp.ts';

/** What settling one week does to a user's streak and XP. */
export interface SettledWeek {
  readonly streak: Streak;
  readonly xp: readonly XpEntry[];
}

/**
 * Applies a settled week's goal outcome: the streak moves on, and a completed week earns 250 for the goal plus 100
 * for the streak week it adds. A missed week earns nothing and resets the current streak. A replayed outcome
 * (a week at or before the last completed one) changes nothing and earns nothing, so redelivery is harmless.
 * `paused` weeks are skipped by the streak (streaks.ts), so a paused week between two completed ones keeps it.
 */
export function settleWeek(
  streak: Streak,
  goalId: string,
  outcome: WeekOutcome,
  paused: PausedWeeks = new Set(),
): SettledWeek {
  const next = streakAfterSkipping(paused)(streak, outcome);
  if (next === streak || outcome.result === 'missed') return { streak: next, xp: [] };
  return { streak: next, xp: [goalXpEntry(goalId), streakXpEntry(outcome.weekStart, next.current)] };
}
