import { type DomainError, domainError } from '../shared/decider.ts';
import { MAX_SURGE_MULTIPLIER } from './policy.ts';

/** Every refusal of the surge schedule, with its message for the operator. */
export const surgeErrors = {
  exists: () => domainError('conflict', 'surge_exists', 'Surge already exists'),
  notFound: () => domainError('not_found', 'surge_not_found', 'Surge not found'),
  multiplierTooLow: () => domainError('invalid', 'multiplier_too_low', 'Surge multiplier must be greater than 1'),
  multiplierTooHigh: () =>
    domainError('invalid', 'multiplier_too_high', `Surge multiplier must be at most ${MAX_SURGE_MULTIPLIER}`),
  endsBeforeStart: () => domainError('invalid', 'surge_ends_before_start', 'Surge must end after it starts'),
  startsInPast: () => domainError('invalid', 'surge_starts_in_past', 'Surge cannot start in the past'),
  overlaps: () => domainError('conflict', 'surge_overlaps', 'Surge overlaps another surge'),
  active: () => domainError('conflict', 'surge_active', 'An active surge cannot be canceled'),
  ended: () => domainError('conflict', 'surge_ended', 'Surge has already ended'),
  canceled: () => domainError('conflict', 'surge_canceled', 'Surge is already canceled'),
} satisfies Record<string, (...args: never[]) => DomainError>;
