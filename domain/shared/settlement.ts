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
  const ny = settlementMoment(weekStart);
  const local = weekStartingOn(weekStart, timeZone).end;
  return Temporal.Instant.compare(ny, local) >= 0 ? ny : local;
}

/** Whether a goal of the week `weekStart` in `timeZone` may be settled at `now`. */
export function maySettle(weekStart: string, timeZone: string, now: Temporal.Instant): boolean {
  return Temporal.Instant.compare(now, goalSettlesAt(weekStart, timeZone)) >= 0;
}
