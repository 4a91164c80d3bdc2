import { isLeft } from 'fp-ts/lib/Either.js';
import type { Decider } from '../../domain/shared/decider.ts';
import {
  type AppendResult,
  type EventStore,
  type NewEvent,
  WrongExpectedVersionError,
} from '../../domain/shared/event-store.ts';
import { DomainRefusal } from './domain-refusal.ts';

/** The shape every domain event has: a past-tense type and its data. */
export interface DomainEvent {
  readonly type: string;
  readonly data: unknown;
}

/** Who and what caused a command, stamped on every event it produces. */
export interface CommandMetadata {
  readonly actorId: string | null;
  readonly correlationId: string;
  readonly causationId?: string | null;
  readonly now: Date;
  newEventId(): string;
}

export interface CommandResult<Event, State> {
  /** The events appended (none when the command changed nothing, e.g. an idempotent repeat). */
  readonly events: readonly Event[];
  /** The aggregate's state after them. */
  readonly state: State;
  /** Where they landed in the log: the client can wait for its read models to reach it. */
  readonly append: AppendResult | null;
}

/**
 * The write side in one function: read the stream, fold it, decide, append with the expected version. A lost race
 * (another writer appended first) re-reads and decides again, a bounded number of times, then surfaces as a 409.
 * `command` may be a function of the current state, for commands whose fields depend on it.
 */
export async function executeCommand<Command, Event extends DomainEvent, State, Tx = unknown>(
  store: EventStore<Tx>,
  decider: Decider<Command, Event, State>,
  streamId: string,
  command: Command | ((state: State) => Command),
  metadata: CommandMetadata,
  options: { maxAttempts?: number; transaction?: Tx } = {},
): Promise<CommandResult<Event, State>> {
  const maxAttempts = options.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(streamId, options.transaction ? { transaction: options.transaction } : {});
    const state = history.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as Event), decider.initialState);
    const resolved = typeof command === 'function' ? (command as (state: State) => Command)(state) : command;
    const decision = decider.decide(resolved, state);
    if (isLeft(decision)) throw new DomainRefusal(decision.left);
    const events = decision.right;
    if (events.length === 0) return { events, state, append: null };
    const last = history[history.length - 1];
    try {
      const append = await store.appendToStream(streamId, events.map((e) => toNewEvent(e, metadata)), {
        expectedVersion: last ? last.streamRevision : 'no_stream',
        ...(options.transaction ? { transaction: options.transaction } : {}),
      });
      return { events, state: events.reduce(decider.evolve, state), append };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < maxAttempts && !options.transaction) continue;
      throw error;
    }
  }
}

/** Wraps a domain event with the metadata every stored event carries. */
export function toNewEvent(event: DomainEvent, metadata: CommandMetadata): NewEvent {
  return {
    type: event.type,
    data: event.data,
    metadata: {
      eventId: metadata.newEventId(),
      occurredAt: metadata.now.toISOString(),
      actorId: metadata.actorId,
      correlationId: metadata.correlationId,
      causationId: metadata.causationId ?? null,
      schemaVersion: 1,
    },
  };
}
