import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type DomainError, domainError } from '../shared/decider.ts';

/** Shortest and longest group names after trimming (§5, §9). */
export const GROUP_NAME_MIN = 3;
export const GROUP_NAME_MAX = 50;
/** Invite codes are exactly this long (§9). */
export const INVITE_CODE_LENGTH = 8;

/** Trims a group name and checks its length, with the spec's message for a short one. */
export function validateGroupName(raw: string): Either<DomainError, string> {
  const name = raw.trim();
  if (name.length < GROUP_NAME_MIN) {
    return left(domainError('invalid', 'group_name_too_short', 'Group name must be at least 3 characters'));
  }
  if (name.length > GROUP_NAME_MAX) {
    return left(domainError('invalid', 'group_name_too_long', 'Group name must be at most 50 characters'));
  }
  return right(name);
}

/** Normalises an invite code as entered (trim, uppercase) and checks its length (§5). */
export function normaliseInviteCode(raw: string): Either<DomainError, string> {
  const code = raw.trim().toUpperCase();
  // Length in code points, so an emoji is one character as a person would count it.
  return [...code].length === INVITE_CODE_LENGTH
    ? right(code)
    : left(domainError('invalid', 'invite_code_length', 'Invite code must be 8 characters'));
}
