import { type Either, isRight } from 'fp-ts/lib/Either.js';
import type { z } from 'zod';

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
 * inside the command, never from a global clock. `eventSchema` is the zod union of the aggregate's events (its
 * events.ts); every decider is built with `defineDecider`, which checks each event it decides against it.
 */
export interface Decider<Command, Event, State> {
  readonly initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Either<DomainError, readonly Event[]>;
  readonly eventSchema: z.ZodType<Event>;
  /**
   * A shortcut for events the schema is slow on (a run's thousands of fixes): true only when the event certainly fits
   * `eventSchema`; false leaves it to the schema. A test holds it to that (domain/run/event-fits.test.ts).
   */
  readonly eventFits?: (event: Event) => boolean;
}

/**
 * A decided event that does not fit its aggregate's schema: a bug in the decider, never a user's mistake (that is a
 * DomainError), so it surfaces as a server error and the event never reaches the log.
 */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
}

/** Why the first of these events misfits `schema` (`<type> does not fit its schema: <path>: <issue>`), or null. */
export function invalidEvent<Event>(
  schema: z.ZodType<Event>,
  events: readonly Event[],
  fits: (event: Event) => boolean = () => false,
): string | null {
  for (const event of events) {
    if (fits(event)) continue;
    const result = schema.safeParse(event);
    if (!result.success) {
      const type = (event as { type?: unknown }).type;
      const issues = result.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
      return `${String(type)} does not fit its schema: ${issues}`;
    }
  }
  return null;
}

/**
 * A decider whose every decision is checked against its event schema: whoever appends what it decides (one stream,
 * several in a transaction, a seed script) appends only events that read back as their type says. Throws
 * InvalidEventError on a misfit.
 */
export function defineDecider<Command, Event, State>(
  parts: Decider<Command, Event, State>,
): Decider<Command, Event, State> {
  return {
    initialState: parts.initialState,
    evolve: parts.evolve,
    eventSchema: parts.eventSchema,
    ...(parts.eventFits ? { eventFits: parts.eventFits } : {}),
    decide(command, state) {
      const decision = parts.decide(command, state);
      if (isRight(decision)) {
        const invalid = invalidEvent(parts.eventSchema, decision.right, parts.eventFits);
        if (invalid !== null) throw new InvalidEventError(invalid);
      }
      return decision;
    },
  };
}

/** Folds a history of events into the current state. */
export function foldEvents<Command, Event, State>(
  decider: Decider<Command, Event, State>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState);
}
