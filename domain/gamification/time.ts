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
