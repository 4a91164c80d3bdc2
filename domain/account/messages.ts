import { type DomainError, domainError } from '../shared/decider.ts';
import { DISPLAY_NAME_MAX } from './policy.ts';

/** Every refusal of the account aggregate, with its user-facing message. */
export const accountErrors = {
  exists: () => domainError('conflict', 'account_exists', 'Account already exists'),
  notFound: () => domainError('not_found', 'user_not_found', 'User not found'),
  noChanges: () => domainError('invalid', 'no_changes', 'No changes to save'),
  deletionAlreadyRequested: () =>
    domainError('conflict', 'deletion_already_requested', 'Account deletion was already requested'),
  deletionNotRequested: () => domainError('conflict', 'deletion_not_requested', 'Account deletion was not requested'),
  displayNameRequired: () => domainError('invalid', 'display_name_required', 'Display name is required'),
  displayNameTooLong: () =>
    domainError('invalid', 'display_name_too_long', `Display name must be at most ${DISPLAY_NAME_MAX} characters`),
  displayNameInvalid: () => domainError('invalid', 'display_name_invalid', 'Display name contains invalid characters'),
  invalidTimeZone: () => domainError('invalid', 'invalid_timezone', 'Time zone must be a valid IANA time zone'),
} satisfies Record<string, (...args: never[]) => DomainError>;
