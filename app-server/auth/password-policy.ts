import { dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH } from '../../domain/validation/auth.ts';
import type { WeakPasswordReason } from './auth-error.ts';

/**
 * The 10,000 most common passwords of zxcvbn-ts's `passwords-common` list (@zxcvbn-ts/language-common, ranked by
 * frequency in leaked password sets), keeping those long enough to pass the length rule; lowercase, as listed.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  dictionary['passwords-common'].slice(0, 10_000).filter((p) => [...p].length >= MIN_PASSWORD_LENGTH),
);

/**
 * GoTrue's message for a password shorter than its minimum (reason `length`), with ours: the standard client's users
 * and tests read it (the web form checks the length itself first and shows the spec's 'Password too short').
 */
export const SHORT_PASSWORD_MESSAGE = `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`;

/** GoTrue's message for a password found in breach lists (reason `pwned`). */
export const COMMON_PASSWORD_MESSAGE = 'Password is known to be weak and easy to guess, please choose a different one.';

/** The message for a password made of spaces only (reason `characters`). */
export const BLANK_PASSWORD_MESSAGE = 'Password must contain at least one character that is not a space.';

/** Why a password is refused, in GoTrue's weak_password terms; null when it is strong enough. */
export type PasswordWeakness = { readonly reason: WeakPasswordReason; readonly message: string };

/**
 * The minimum strength of a new password (spec §5, issue 11): at least 8 characters (code points, so an emoji is
 * one), not only whitespace, and not one of the 10,000 most common passwords in any letter case. The first rule
 * that fails decides, so a short password always gets GoTrue's length message.
 */
export function passwordWeakness(
  password: string,
  common: ReadonlySet<string> = COMMON_PASSWORDS,
): PasswordWeakness | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return { reason: 'length', message: SHORT_PASSWORD_MESSAGE };
  if (password.trim() === '') return { reason: 'characters', message: BLANK_PASSWORD_MESSAGE };
  if (common.has(password.trim().toLowerCase())) return { reason: 'pwned', message: COMMON_PASSWORD_MESSAGE };
  return null;
}

/** The common-password list in use, for tests. */
export function commonPasswords(): ReadonlySet<string> {
  return COMMON_PASSWORDS;
}
