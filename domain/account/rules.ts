import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type DomainError, domainError } from '../shared/decider.ts';
import { DEFAULT_TIME_ZONE, canonicalTimeZone } from '../shared/time-zone.ts';

/** The 16 time-zone choices of the profile screen (§3); any other valid IANA zone is accepted too. */
export const TIME_ZONE_OPTIONS = [
  { value: 'America/New_York', label: 'Eastern' },
  { value: 'America/Chicago', label: 'Central' },
  { value: 'America/Denver', label: 'Mountain' },
  { value: 'America/Phoenix', label: 'Arizona' },
  { value: 'America/Los_Angeles', label: 'Pacific' },
  { value: 'America/Anchorage', label: 'Alaska' },
  { value: 'Pacific/Honolulu', label: 'Hawaii' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Europe/Paris', label: 'Paris/Berlin/Rome' },
  { value: 'Europe/Istanbul', label: 'Athens/Istanbul' },
  { value: 'Asia/Dubai', label: 'Dubai' },
  { value: 'Asia/Kolkata', label: 'Mumbai/New Delhi' },
  { value: 'Asia/Shanghai', label: 'Beijing/Shanghai' },
  { value: 'Asia/Tokyo', label: 'Tokyo/Osaka' },
  { value: 'Australia/Sydney', label: 'Sydney/Melbourne' },
  { value: 'Pacific/Auckland', label: 'Auckland' },
] as const;

/** Longest display name accepted; long enough for real names, short enough for leaderboards. */
export const DISPLAY_NAME_MAX = 50;

/** How long the product promises to take, at most, to erase personal data after a deletion request. */
export const ERASURE_DEADLINE_DAYS = 30;

/** A display name trimmed, non-empty, at most 50 characters and free of control characters. */
export function validateDisplayName(raw: string): Either<DomainError, string> {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name === '') return left(domainError('invalid', 'display_name_required', 'Display name is required'));
  if ([...name].length > DISPLAY_NAME_MAX) {
    return left(
      domainError('invalid', 'display_name_too_long', `Display name must be at most ${DISPLAY_NAME_MAX} characters`),
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return left(domainError('invalid', 'display_name_invalid', 'Display name contains invalid characters'));
  }
  return right(name);
}

/** A time zone in its canonical IANA spelling; absent means America/New_York. */
export function validateTimeZone(raw: string | undefined): Either<DomainError, string> {
  if (raw === undefined) return right(DEFAULT_TIME_ZONE);
  const zone = canonicalTimeZone(raw);
  if (zone === null) {
    return left(domainError('invalid', 'invalid_timezone', 'Time zone must be a valid IANA time zone'));
  }
  return right(zone);
}
