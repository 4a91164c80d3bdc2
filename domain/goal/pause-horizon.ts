import { Temporal } from 'temporal-polyfill';
import { addWeeks, nextWeekStart, weekStartingOn } from '../shared/week.ts';

/**
 * PAUSES WITH NOTICE (issue 25, "Fair to the cent"; Beeminder's seven-day horizon, with money).
 *
 * A runner may pause a Monday–Sunday week for injury or travel: that week has no goal and no stake, and it neither
 * breaks nor extends the streak (streaks.ts). A pause must be set at least 7 days before its week begins, so it
 * cannot be used to escape a week one already sees going badly; the notice is the whole point of the rule.
 *
 * "7 days ahead" is measured from `now` to the week's first instant (Monday 00:00 in the runner's zone, week.ts),
 * as 7 days on the runner's own wall clock (Temporal's zoned arithmetic): across a DST switch those 7 days are 167
 * or 169 hours, so the boundary the runner reads ("Monday 00:00, a week from now") is the one applied, not one an
 * hour off.
 */
export const PAUSE_NOTICE_DAYS = 7;

/** The reasons a runner gives for a pause (shown back to them; no rule depends on it). */
export const PAUSE_REASONS = ['injury', 'travel', 'other'] as const;
/** Why a week is paused. */
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** Whether a Monday date (YYYY-MM-DD) is a Monday. */
export function isMonday(date: string): boolean {
  return Temporal.PlainDate.from(date).dayOfWeek === 1;
}

/** The earliest instant a week may start and still be paused at `now`: now + 7 days on the runner's wall clock. */
export function pauseNoticeEnds(now: Temporal.Instant, timeZone: string): Temporal.Instant {
  return now.toZonedDateTimeISO(timeZone).add({ days: PAUSE_NOTICE_DAYS }).toInstant();
}

/** Whether the week starting on the Monday `weekStart` in `timeZone` begins at least 7 days after `now`. */
export function isPauseNoticeGiven(weekStart: string, timeZone: string, now: Temporal.Instant): boolean {
  return Temporal.Instant.compare(weekStartingOn(weekStart, timeZone).start, pauseNoticeEnds(now, timeZone)) >= 0;
}

/** The Monday (YYYY-MM-DD) of the earliest week that may be paused at `now`. */
export function earliestPausableWeek(now: Temporal.Instant, timeZone: string): string {
  // Next week's start is under 7 days away (or exactly 7, at Monday 00:00); the week after it is always far enough.
  const next = nextWeekStart(now, timeZone);
  return isPauseNoticeGiven(next, timeZone, now) ? next : addWeeks(next, 1);
}
