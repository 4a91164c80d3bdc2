import { Temporal } from 'temporal-polyfill';

// Commands carry `now` as a Temporal.Instant; event data stores instants as ISO-8601 strings (JSON). These helpers
// cross between the two, and compare stored strings through Temporal so that different offsets ('…Z' versus
// '…+02:00') for the same moment compare equal.

/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: within them Date and Temporal both write the year in 4 digits. */
const YEAR_0000_MS = -62_167_219_200_000;
const YEAR_10000_MS = 253_402_300_800_000;

/**
 * Date#toISOString of the instant when it is a whole millisecond of the years 0000–9999 (every instant a clock or a
 * stored string gives), else null. Temporal's own formatting is its dearest step: a 100,000-goal settlement writes
 * instants into events hundreds of thousands of times, and Date writes them in less than half the time.
 */
function dateIso(instant: Temporal.Instant): string | null {
  const ms = instant.epochMilliseconds;
  if (ms < YEAR_0000_MS || ms >= YEAR_10000_MS) return null;
  if (instant.epochNanoseconds !== BigInt(ms) * 1_000_000n) return null;
  return new Date(ms).toISOString();
}

/**
 * `instant.toString()`, exactly ('2025-03-03T10:00:00Z', '2025-03-03T10:00:00.5Z'): the fraction of a second only as
 * far as it is not zero. The form goal, run and stake events store their instants in.
 */
export function instantIso(instant: Temporal.Instant): string {
  const iso = dateIso(instant);
  if (iso === null) return instant.toString();
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return fraction === '' ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 20)}${fraction}Z`;
}

/**
 * An instant as the account, badge, group, reaction, surge and XP events store it: Date#toISOString's form, with
 * milliseconds always written ('2025-03-03T10:00:00.000Z'), as those events were stored before their commands
 * carried a Temporal.Instant. Exactly `instant.toString({ fractionalSecondDigits: 3 })`.
 */
export function isoMillis(instant: Temporal.Instant): string {
  return dateIso(instant) ?? instant.toString({ fractionalSecondDigits: 3 });
}

/** Compares two ISO-8601 instants: negative when a is earlier, 0 when equal, positive when later. */
export function compareInstants(a: string, b: string): number {
  return Temporal.Instant.compare(Temporal.Instant.from(a), Temporal.Instant.from(b));
}
