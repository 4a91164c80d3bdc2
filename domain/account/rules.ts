import { type Either, left, right } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../shared/decider.ts';
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from '../shared/time-zone.ts';
import { accountErrors } from './messages.ts';
import { DISPLAY_NAME_MAX, FALLBACK_DISPLAY_NAME } from './policy.ts';

/** A display name trimmed, non-empty, at most 50 characters and free of control characters. */
export function validateDisplayName(raw: string): Either<DomainError, string> {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name === '') return left(accountErrors.displayNameRequired());
  if ([...name].length > DISPLAY_NAME_MAX) return left(accountErrors.displayNameTooLong());
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return left(accountErrors.displayNameInvalid());
  return right(name);
}

/**
 * A display name derived from an e-mail address, for a sign-up without one: the local part before any `+tag`,
 * without control characters or whitespace, cut to 50 characters; 'Runner' if nothing is left. Always passes
 * validateDisplayName.
 */
export function displayNameFromEmail(email: string): string {
  const local = email.slice(0, Math.max(0, email.lastIndexOf('@'))).split('+')[0] ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const cleaned = local.replace(/[\u0000-\u001f\u007f\s]/g, '');
  const name = [...cleaned].slice(0, DISPLAY_NAME_MAX).join('');
  return name === '' ? FALLBACK_DISPLAY_NAME : name;
}

/** A time zone in its canonical IANA spelling; absent means America/New_York. */
export function validateTimeZone(raw: string | undefined): Either<DomainError, string> {
  if (raw === undefined) return right(DEFAULT_TIME_ZONE);
  const zone = canonicalTimeZone(raw);
  return zone === null ? left(accountErrors.invalidTimeZone()) : right(zone);
}
