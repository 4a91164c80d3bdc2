import type { Either } from 'fp-ts/lib/Either.js';

/**
 * A refusal from the domain: a stable code for programs and the exact user-facing message of the spec for people.
 * `kind` tells the HTTP layer how to answer: invalid → 400, not_found → 404, conflict → 409, forbidden → 403.
 */
export interface DomainError {
  readonly kind: 'invalid' | 'not_found' | 'conflict' | 'forbidden';
  readonly code: string;
  readonly message: string;
}

/** Builds a DomainError. */
export function domainError(kind: DomainError['kind'], code: string, message: string): DomainError {
  return { kind, code, message };
}

/**
 * An aggregate's behaviour as three pure functions (the Decider pattern): fold past events with `evolve` from
 * `initialState`, then `decide` what new events a command produces, or why it is refused. Time and ids arrive
 * inside the command, never from a global clock.
 */
export interface Decider<Command, Event, State> {
  readonly initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Either<DomainError, readonly Event[]>;
}

/** Folds a history of events into the current state. */
export function foldEvents<Command, Event, State>(
  decider: Decider<Command, Event, State>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState);
}
