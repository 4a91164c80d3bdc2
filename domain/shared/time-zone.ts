import { Temporal } from 'temporal-polyfill';

/** Default time zone of a new user (§3, §9). */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/** The zone in which settlement runs (§4: Monday 00:00 Eastern). */
export const SETTLEMENT_TIME_ZONE = 'America/New_York';

/**
 * The canonical spelling of an IANA zone name, or null when it is not one. Pure: Temporal only consults the
 * bundled zone data. Fixed offsets ('+05:00') are refused on purpose: they do not follow DST, so a goal locked to
 * one would drift from the runner's wall clock for half the year.
 */
export function canonicalTimeZone(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '' || /^[+-]/.test(trimmed)) return null;
  try {
    return Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(trimmed).timeZoneId;
  } catch {
    return null;
  }
}
