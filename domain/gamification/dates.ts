import { Temporal } from 'temporal-polyfill';

// Calendar dates travel as 'YYYY-MM-DD' strings (the spec's period_start, week_start); arithmetic goes through
// Temporal so month and year boundaries are right.

/** Adds whole days to a calendar date. */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** Compares two calendar dates: negative when a is earlier. */
export function compareDates(a: string, b: string): number {
  return Temporal.PlainDate.compare(Temporal.PlainDate.from(a), Temporal.PlainDate.from(b));
}

/** The Monday on or before a calendar date: our weeks run Monday to Sunday (§1). */
export function mondayOf(date: string): string {
  const day = Temporal.PlainDate.from(date);
  return day.subtract({ days: day.dayOfWeek - 1 }).toString();
}
