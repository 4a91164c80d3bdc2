import { type DomainError, domainError } from '../shared/decider.ts';

/** Every refusal of the badge collection, with its user-facing message. */
export const badgeErrors = {
  unknownType: () => domainError('invalid', 'unknown_badge_type', 'Unknown badge type'),
  alreadyEarned: () => domainError('conflict', 'badge_already_earned', 'Badge already earned'),
  notEarned: () => domainError('not_found', 'badge_not_earned', 'Badge has not been earned'),
  alreadyCelebrated: () => domainError('conflict', 'badge_already_celebrated', 'Badge already celebrated'),
} satisfies Record<string, (...args: never[]) => DomainError>;
