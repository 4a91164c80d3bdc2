import type { Temporal } from 'temporal-polyfill';

/**
 * The dashboard's "Days left" (§2): the days of this Monday–Sunday week still to run in `timeZone`, counting
 * today. Monday gives 7, Sunday gives 1 (the final day).
 */
export function daysLeftInWeek(now: Temporal.Instant, timeZone: string): number {
  return 8 - now.toZonedDateTimeISO(timeZone).dayOfWeek;
}

/** The two lines the dashboard shows for the days left: 'Last day!' / 'ends at 11:59 PM' on Sunday. */
export function daysLeftText(daysLeft: number): { readonly headline: string; readonly detail: string | null } {
  if (daysLeft <= 1) return { headline: 'Last day!', detail: 'ends at 11:59 PM' };
  return { headline: `${daysLeft} days left`, detail: null };
}
