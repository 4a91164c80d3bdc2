import { Temporal } from 'temporal-polyfill';

// Calendar dates travel as 'YYYY-MM-DD' strings (the spec's period_start, week_start); arithmetic goes through
// Temporal so month and year boundaries are right. Streaks and leaderboards ask these for every member of a group on
// every request, and parsing a date with Temporal costs microseconds each time, so a well-formed date takes a shorter
// road with the same answer: the proleptic Gregorian calendar of Date.UTC, and the text order of 'YYYY-MM-DD'.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch day of a well-formed, existing 'YYYY-MM-DD' date, else null (Temporal then decides, and throws if invalid). */
function epochDay(date: string): number | null {
  const parts = ISO_DATE.exec(date);
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March, and treats years below 100 as 19xx: refuse both.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return ms / 86_400_000;
}

function fromEpochDay(days: number): string | null {
  const date = new Date(days * 86_400_000);
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999) return null;
  return date.toISOString().slice(0, 10);
}

/** Adds whole days to a calendar date. */
export function addDays(date: string, days: number): string {
  const day = Number.isInteger(days) ? epochDay(date) : null;
  const shifted = day === null ? null : fromEpochDay(day + days);
  return shifted ?? Temporal.PlainDate.from(date).add({ days }).toString();
}

/** Compares two calendar dates: negative when a is earlier. */
export function compareDates(a: string, b: string): number {
  if (epochDay(a) !== null && epochDay(b) !== null) return a < b ? -1 : a > b ? 1 : 0;
  return Temporal.PlainDate.compare(Temporal.PlainDate.from(a), Temporal.PlainDate.from(b));
}

/** The Monday on or before a calendar date: our weeks run Monday to Sunday (§1). */
export function mondayOf(date: string): string {
  const day = epochDay(date);
  const monday = day === null ? null : fromEpochDay(day - (weekdayOfEpochDay(day) - 1));
  if (monday !== null) return monday;
  const plain = Temporal.PlainDate.from(date);
  return plain.subtract({ days: plain.dayOfWeek - 1 }).toString();
}

/** ISO day of the week of a calendar date: 1 on Mondays, 7 on Sundays. */
export function dayOfWeekOf(date: string): number {
  const day = epochDay(date);
  return day === null ? Temporal.PlainDate.from(date).dayOfWeek : weekdayOfEpochDay(day);
}

/** ISO day of the week of an epoch day. 1970-01-01 (epoch day 0) was a Thursday: (day + 3) mod 7 is 0 on Mondays. */
function weekdayOfEpochDay(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;

/**
 * The hour of a local date-time ('YYYY-MM-DDTHH:mm[:ss[.fff]]', as PlainDateTime writes it). The badge rules ask it
 * of every run of a user each time a run comes in (a worker catching up asks it millions of times); read from the
 * text when the text is well-formed, through Temporal otherwise (which then decides, and throws if it is not a time).
 */
export function localHourOf(localStart: string): number {
  const parts = LOCAL_TIME.exec(localStart);
  if (parts && epochDay(parts[1]!) !== null) {
    const [hour, minute, second] = [Number(parts[2]), Number(parts[3]), Number(parts[4] ?? 0)];
    if (hour <= 23 && minute <= 59 && second <= 59) return hour;
  }
  return Temporal.PlainDateTime.from(localStart).hour;
}
