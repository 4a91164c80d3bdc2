import { isLeft } from 'fp-ts/lib/Either.js';
import type { Transaction } from 'kysely';
import type { Decider } from '../../domain/shared/decider.ts';
import {
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from '../../domain/shared/event-store.ts';
import type { Database } from '../db/database.ts';
import { DomainRefusal } from './domain-refusal.ts';
import { type CommandMetadata, toNewEvent } from './event-metadata.ts';

/*
 * The write side (ARCHITECTURE.md): read the stream, fold it, decide, append with the expected version. One
 * stream: `executeCommand`, which re-reads and decides again when another writer appended first. Several streams
 * that must change together (a goal, its week in the user's index and its stake): `executeInTransaction`, whose
 * work runs `executeCommand` (or `loadAggregate` + `appendEvents`) with its transaction for each stream; a lost
 * race on any of them rolls the whole transaction back and runs the work again from the start.
 */

/** The shape every domain event has: a past-tense type and its data. */
export interface DomainEvent {
  readonly type: string;
  readonly data: unknown;
}

type Tx = Transaction<object>;

/** An aggregate as its stream tells it: its state and the revision a write must expect. */
export interface LoadedAggregate<State> {
  readonly state: State;
  readonly expectedVersion: ExpectedVersion;
}

export interface CommandResult<Event, State> {
  /** The events appended (none when the command changed nothing, e.g. an idempotent repeat). */
  readonly events: readonly Event[];
  /** The aggregate's state after them. */
  readonly state: State;
  /** Where they landed in the log: the client can wait for its read models to reach it. */
  readonly append: AppendResult | null;
}

/** Reads a stream (inside `transaction` when given) and folds it with the decider. */
export async function loadAggregate<Command, Event extends DomainEvent, State>(
  store: EventStore<Tx>,
  decider: Decider<Command, Event, State>,
  streamId: string,
  transaction?: Tx,
): Promise<LoadedAggregate<State>> {
  const history = await store.readStream(streamId, transaction ? { transaction } : {});
  const state = history.reduce(
    (s, e) => decider.evolve(s, { type: e.type, data: e.data } as Event),
    decider.initialState,
  );
  const last = history[history.length - 1];
  return { state, expectedVersion: last ? last.streamRevision : 'no_stream' };
}

/** Appends decided events with the metadata of their command; nothing to append answers null. */
export async function appendEvents(
  store: EventStore<Tx>,
  streamId: string,
  events: readonly DomainEvent[],
  metadata: CommandMetadata,
  expectedVersion: ExpectedVersion,
  transaction?: Tx,
): Promise<AppendResult | null> {
  if (events.length === 0) return null;
  return store.appendToStream(
    streamId,
    events.map((e) => toNewEvent(e, metadata)),
    { expectedVersion, ...(transaction ? { transaction } : {}) },
  );
}

/**
 * One command on one stream: read, fold, decide, append with the expected version. A lost race (another writer
 * appended first) re-reads and decides again, a bounded number of times, then surfaces as a 409. Inside a
 * transaction the race is not retried here: it rolls back the transaction, which `executeInTransaction` retries.
 * `command` may be a function of the current state, for commands whose fields depend on it.
 */
export async function executeCommand<Command, Event extends DomainEvent, State>(
  store: EventStore<Tx>,
  decider: Decider<Command, Event, State>,
  streamId: string,
  command: Command | ((state: State) => Command),
  metadata: CommandMetadata,
  options: {
    maxAttempts?: number;
    transaction?: Tx;
    /**
     * How to read the state, when folding the whole stream is not needed: a stream whose state is its last event
     * (a reaction, reaction-commands.ts) reads one event, however long its history.
     */
    load?: (transaction?: Tx) => Promise<LoadedAggregate<State>>;
  } = {},
): Promise<CommandResult<Event, State>> {
  const maxAttempts = options.transaction ? 1 : (options.maxAttempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    const { state, expectedVersion } = options.load
      ? await options.load(options.transaction)
      : await loadAggregate(store, decider, streamId, options.transaction);
    const resolved = typeof command === 'function' ? (command as (state: State) => Command)(state) : command;
    const decision = decider.decide(resolved, state);
    if (isLeft(decision)) throw new DomainRefusal(decision.left);
    const events = decision.right;
    try {
      const append = await appendEvents(store, streamId, events, metadata, expectedVersion, options.transaction);
      return { events, state: events.reduce(decider.evolve, state), append };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < maxAttempts) continue;
      throw error;
    }
  }
}

/**
 * Several streams changed together: `work` runs in one transaction (pass it on to every read and append), and
 * either all its appends commit or none. When another writer got to one of its streams first — a wrong expected
 * version, or the store's stream-order conflict — the transaction rolls back and `work` runs again from the start
 * on fresh reads, at most `maxAttempts` times; then the conflict surfaces (a 409).
 */
export async function executeInTransaction<T>(
  database: Database,
  work: (transaction: Tx) => Promise<T>,
  maxAttempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(work);
    } catch (error) {
      const lostRace = error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError;
      if (lostRace && attempt < maxAttempts) continue;
      throw error;
    }
  }
}
