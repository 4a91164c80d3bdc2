import { type DomainError, domainError } from '../shared/decider.ts';
import { GROUP_MEMBERS_MAX, GROUP_NAME_MAX, GROUP_NAME_MIN, INVITE_CODE_LENGTH } from './policy.ts';

/** Every refusal of the group aggregate, with its user-facing message. */
export const groupErrors = {
  notFound: () => domainError('not_found', 'group_not_found', 'Group not found'),
  exists: () => domainError('conflict', 'group_exists', 'Group already exists'),
  nameTooShort: () =>
    domainError('invalid', 'group_name_too_short', `Group name must be at least ${GROUP_NAME_MIN} characters`),
  nameTooLong: () =>
    domainError('invalid', 'group_name_too_long', `Group name must be at most ${GROUP_NAME_MAX} characters`),
  codeLength: () =>
    domainError('invalid', 'invite_code_length', `Invite code must be ${INVITE_CODE_LENGTH} characters`),
  expiryInPast: () => domainError('invalid', 'invite_expiry_in_past', 'Invite code expiry must be in the future'),
  codeMismatch: () => domainError('invalid', 'invite_code_mismatch', 'Invalid invite code'),
  codeExpired: () => domainError('invalid', 'invite_code_expired', 'This invite code has expired'),
  full: () => domainError('conflict', 'group_full', `This group is full (at most ${GROUP_MEMBERS_MAX} members)`),
  alreadyMember: () => domainError('conflict', 'already_member', 'You are already a member of this group'),
  notMember: () => domainError('not_found', 'not_a_member', 'You are not a member of this group'),
  ownerCannotLeave: () => domainError('forbidden', 'owner_cannot_leave', 'The group owner cannot leave the group'),
  notOwner: () => domainError('forbidden', 'not_owner', 'Only the group owner can change the invite code'),
} satisfies Record<string, (...args: never[]) => DomainError>;
