import { type DomainError, domainError } from '../shared/decider.ts';
import { MAX_NOTES_LENGTH } from './policy.ts';

/** Every refusal of the run aggregate; the too-short message is the spec's (§8). */
export const runErrors = {
  tooShort: () =>
    domainError(
      'invalid',
      'run_too_short',
      'Unable to save run. The run may be too short (minimum 60 seconds) or have insufficient GPS data (minimum 2 positions).',
    ),
  invalidPosition: () =>
    domainError('invalid', 'invalid_position', 'GPS positions must have a valid latitude, longitude and time'),
  invalidImport: () =>
    domainError('invalid', 'invalid_import', 'The imported activity has an invalid distance or duration'),
  inFuture: () => domainError('invalid', 'run_in_future', 'A run cannot start in the future'),
  tooOld: (days: number) =>
    domainError('invalid', 'run_too_old', `A run can only be logged within ${days} days of its start`),
  weekSettled: () =>
    domainError('conflict', 'run_week_settled', "This run's week has been settled: runs can no longer be added to it"),
  notesTooLong: () => domainError('invalid', 'notes_too_long', `Notes must be at most ${MAX_NOTES_LENGTH} characters`),
  exists: () => domainError('conflict', 'run_exists', 'This run already exists'),
  recordingDeleted: () =>
    domainError(
      'conflict',
      'run_deleted',
      'You deleted the run saved from this recording, so it is not saved again. Record a new run instead.',
    ),
  notFound: () => domainError('not_found', 'run_not_found', 'Run not found'),
  notOwner: () => domainError('forbidden', 'not_run_owner', 'You can only change your own runs'),
} satisfies Record<string, (...args: never[]) => DomainError>;
