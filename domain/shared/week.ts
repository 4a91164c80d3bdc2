import { Temporal } from 'temporal-polyfill';

/**
 * One Monday–Sunday week as seen in one time zone. `start` is Monday 00:00 local, `end` the next Monday 00:00
 * local (exclusive). Across a DST switch the week still has 7 local days but 167 or 169 hours, so durations are
 * never computed as 7 × 24 h.
 */
export interface WeekRange {
  /** The Monday, as YYYY-MM-DD in the zone. */
  readonly weekStart: string;
  readonly timeZone: string;
  readonly start: Temporal.Instant;
  readonly end: Temporal.Instant;
}

/** The first instant of a local date (usually 00:00; later where midnight is skipped by DST). */
function startOfLocalDay(date: Temporal.PlainDate, timeZone: string): Temporal.Instant {
  return date.toZonedDateTime({ timeZone }).toInstant();
}

/**
 * Weeks already worked out, by Monday and zone. A week's bounds never change, every goal of a week asks for the same
 * one, and working them out through the zone's rules is the dearest step of a goal's progress; the result is
 * immutable, so it is shared. Bounded: emptied when full.
 */
const knownWeeks = new Map<string, WeekRange>();
const KNOWN_WEEKS_LIMIT = 4096;

/** The week that begins on the Monday `weekStart` (YYYY-MM-DD) in `timeZone`. */
export function weekStartingOn(weekStart: string, timeZone: string): WeekRange {
  const key = `${weekStart}|${timeZone}`;
  const known = knownWeeks.get(key);
  if (known) return known;
  const week = computeWeekStartingOn(weekStart, timeZone);
  if (knownWeeks.size >= KNOWN_WEEKS_LIMIT) knownWeeks.clear();
  knownWeeks.set(key, week);
  return week;
}

function computeWeekStartingOn(weekStart: string, timeZone: string): WeekRange {
  const monday = Temporal.PlainDate.from(weekStart);
  if (monday.dayOfWeek !== 1) throw new RangeError(`${weekStart} is not a Monday`);
  return {
    weekStart: monday.toString(),
    timeZone,
    start: startOfLocalDay(monday, timeZone),
    end: startOfLocalDay(monday.add({ days: 7 }), timeZone),
  };
}

/** The Monday (YYYY-MM-DD) of the week containing `instant` in `timeZone`. */
export function weekStartOf(instant: Temporal.Instant, timeZone: string): string {
  const local = instant.toZonedDateTimeISO(timeZone).toPlainDate();
  return local.subtract({ days: local.dayOfWeek - 1 }).toString();
}

/** The week containing `instant` in `timeZone`. */
export function weekContaining(instant: Temporal.Instant, timeZone: string): WeekRange {
  return weekStartingOn(weekStartOf(instant, timeZone), timeZone);
}

/** The Monday (YYYY-MM-DD) after the week containing `instant`: when an upcoming goal starts. */
export function nextWeekStart(instant: Temporal.Instant, timeZone: string): string {
  return addWeeks(weekStartOf(instant, timeZone), 1);
}

/** Shifts a week-start date by whole weeks. */
export function addWeeks(weekStart: string, weeks: number): string {
  return Temporal.PlainDate.from(weekStart).add({ weeks }).toString();
}

/** Whether `instant` lies in the week [start, end). */
export function isWithinWeek(instant: Temporal.Instant, week: WeekRange): boolean {
  return Temporal.Instant.compare(instant, week.start) >= 0 && Temporal.Instant.compare(instant, week.end) < 0;
}

/** Whether the week starting `weekStart` has begun in `timeZone` at `now`. */
export function hasWeekStartedInZone(weekStart: string, timeZone: string, now: Temporal.Instant): boolean {
  return Temporal.Instant.compare(now, weekStartingOn(weekStart, timeZone).start) >= 0;
}
