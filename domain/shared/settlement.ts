import { Temporal } from 'temporal-polyfill';
import { SETTLEMENT_TIME_ZONE } from './time-zone.ts';
import { addWeeks, weekStartingOn } from './week.ts';

/**
 * The settlement run for a week (§4, §9): Monday 00:00 America/New_York after the week, i.e. the start of the
 * following week in New York.
 */
export function settlementMoment(weekStart: string): Temporal.Instant {
  return weekStartingOn(addWeeks(weekStart, 1), SETTLEMENT_TIME_ZONE).start;
}

/**
 * When a goal of the week `weekStart` in `timeZone` may be settled: the later of the New York settlement moment
 * and the end of the week in the goal's own zone. A goal in Pacific/Honolulu still has hours to run at the New
 * York moment, so the settlement process defers it; one in Pacific/Auckland ended long before and waits for
 * New York (FACTS: never settle before the week has ended in the goal's zone).
 */
export function goalSettlesAt(weekStart: string, timeZone: string): Temporal.Instant {
  // Remembered: a Monday's settlement asks this for every goal, and the goals share a few weeks and zones (the
  // answer is a pure function of both, and Temporal.Instant is immutable).
  const key = `${weekStart} ${timeZone}`;
  const known = settlesAt.get(key);
  if (known) return known;
  const ny = settlementMoment(weekStart);
  const local = weekStartingOn(weekStart, timeZone).end;
  const answer = Temporal.Instant.compare(ny, local) >= 0 ? ny : local;
  if (settlesAt.size >= SETTLES_AT_REMEMBERED) settlesAt.clear();
  settlesAt.set(key, answer);
  return answer;
}

const settlesAt = new Map<string, Temporal.Instant>();
/** Weeks × zones in use at once are a few hundred; the bound only keeps a long-lived process from growing. */
const SETTLES_AT_REMEMBERED = 10_000;

/** Whether a goal of the week `weekStart` in `timeZone` may be settled at `now`. */
export function maySettle(weekStart: string, timeZone: string, now: Temporal.Instant): boolean {
  return Temporal.Instant.compare(now, goalSettlesAt(weekStart, timeZone)) >= 0;
}
