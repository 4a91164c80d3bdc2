import { type DomainError, domainError } from '../shared/decider.ts';

/** Every refusal of a feed event's reactions, with its user-facing message. */
export const reactionErrors = {
  unknownKind: () => domainError('invalid', 'unknown_reaction', 'Reaction must be thumbs_up, clap or fire'),
  alreadyReacted: () => domainError('conflict', 'already_reacted', 'You have already reacted with this emoji'),
  notYours: () => domainError('forbidden', 'not_your_reaction', 'You can only remove your own reactions'),
  notFound: () => domainError('not_found', 'reaction_not_found', 'Reaction not found'),
} satisfies Record<string, (...args: never[]) => DomainError>;
