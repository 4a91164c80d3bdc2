import { type Either, left, right } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../shared/decider.ts';
import { groupErrors } from './messages.ts';
import { GROUP_NAME_MAX, GROUP_NAME_MIN, INVITE_CODE_LENGTH } from './policy.ts';

/** Trims a group name and checks its length, with the spec's message for a short one. */
export function validateGroupName(raw: string): Either<DomainError, string> {
  const name = raw.trim();
  if (name.length < GROUP_NAME_MIN) return left(groupErrors.nameTooShort());
  if (name.length > GROUP_NAME_MAX) return left(groupErrors.nameTooLong());
  return right(name);
}

/** Normalises an invite code as entered (trim, uppercase) and checks its length (§5). */
export function normaliseInviteCode(raw: string): Either<DomainError, string> {
  const code = raw.trim().toUpperCase();
  // Length in code points, so an emoji is one character as a person would count it.
  return [...code].length === INVITE_CODE_LENGTH ? right(code) : left(groupErrors.codeLength());
}
