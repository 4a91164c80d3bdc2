import { Temporal } from 'temporal-polyfill';

// Instants travel as ISO-8601 strings (JSON-friendly event data); compare them through Temporal so that
// different offsets ('…Z' versus '…+02:00') for the same moment compare equal.

/** Compares two ISO-8601 instants: negative when a is earlier, 0 when equal, positive when later. */
export function compareInstants(a: string, b: string): number {
  return Temporal.Instant.compare(Temporal.Instant.from(a), Temporal.Instant.from(b));
}

/** True when ISO-8601 instant a is strictly before b. */
export function isBefore(a: string, b: string): boolean {
  return compareInstants(a, b) < 0;
}

/** Adds whole days to a calendar date 'YYYY-MM-DD'. */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** Whole days from calendar date a to b (positive when b is later). */
export function daysBetween(a: string, b: string): number {
  return Temporal.PlainDate.from(a).until(Temporal.PlainDate.from(b), { largestUnit: 'days' }).days;
}

/** The Monday on or before a calendar date: our weeks run Monday to Sunday (§1). */
export function mondayOf(date: string): string {
  const day = Temporal.PlainDate.from(date);
  return day.subtract({ days: day.dayOfWeek - 1 }).toString();
}
