import { Temporal } from 'temporal-polyfill';

// Commands carry `now` as a Temporal.Instant; event data stores instants as ISO-8601 strings (JSON). These helpers
// cross between the two, and compare stored strings through Temporal so that different offsets ('…Z' versus
// '…+02:00') for the same moment compare equal.

/**
 * An instant as the account, badge, group, reaction, surge and XP events store it: Date#toISOString's form, with
 * milliseconds always written ('2025-03-03T10:00:00.000Z'), as those events were stored before their commands
 * carried a Temporal.Instant.
 */
export function isoMillis(instant: Temporal.Instant): string {
  return instant.toString({ fractionalSecondDigits: 3 });
}

/** Compares two ISO-8601 instants: negative when a is earlier, 0 when equal, positive when later. */
export function compareInstants(a: string, b: string): number {
  return Temporal.Instant.compare(Temporal.Instant.from(a), Temporal.Instant.from(b));
}
