import { isLeft } from 'fp-ts/lib/Either.js';
import type { Transaction } from 'kysely';
import type { Decider, DomainError } from '../../domain/shared/decider.ts';
import type { EventStore, ExpectedVersion, NewEvent, StreamAppendResult } from '../../domain/shared/event-store.ts';
import { type CommandMetadata, toNewEvent } from './event-metadata.ts';
import type { DomainEvent } from './execute-command.ts';

type Tx = Transaction<object>;

interface Loaded<State> {
  state: State;
  /** The revision the stream had when read (or after the last flush): what the next append expects. */
  expectedVersion: ExpectedVersion;
  pending: NewEvent[];
}

/**
 * Many aggregates of one kind decided in memory and written in one statement: `load` reads all their streams in one
 * query, `decide` runs the pure decider against the state in memory (and folds what it decided, so a second command
 * on the same stream sees the first one's events), `flush` appends every stream's new events at once, each stream
 * expecting the revision it had when read. The same rules as executeCommand, without a round trip per stream: a
 * stream written by someone else meanwhile fails the whole flush with WrongExpectedVersionError, and nothing is
 * written (on PostgreSQL); the caller then decides again from fresh reads, or one stream at a time.
 */
export class DecisionBatch<Command, Event extends DomainEvent, State> {
  readonly #streams = new Map<string, Loaded<State>>();
  readonly store: EventStore<Tx>;
  readonly decider: Decider<Command, Event, State>;
  readonly transaction: Tx | undefined;

  constructor(store: EventStore<Tx>, decider: Decider<Command, Event, State>, transaction?: Tx) {
    this.store = store;
    this.decider = decider;
    this.transaction = transaction;
  }

  /** Reads the streams not read yet, all in one query. */
  async load(streamIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(streamIds)].filter((id) => !this.#streams.has(id));
    if (missing.length === 0) return;
    const read = await this.store.readStreams(missing, this.transaction ? { transaction: this.transaction } : {});
    for (const [id, history] of read) {
      let state = this.decider.initialState;
      for (const e of history) state = this.decider.evolve(state, { type: e.type, data: e.data } as Event);
      const last = history[history.length - 1];
      this.#streams.set(id, { state, expectedVersion: last ? last.streamRevision : 'no_stream', pending: [] });
    }
  }

  /**
   * Takes a stream's state as the caller read it (from a snapshot and the events after it, say) instead of reading the
   * whole stream; `expectedVersion` is the revision that state includes.
   */
  seed(streamId: string, state: State, expectedVersion: ExpectedVersion): void {
    if (!this.#streams.has(streamId)) this.#streams.set(streamId, { state, expectedVersion, pending: [] });
  }

  /** The state in memory (read from the store first when needed), with the events decided so far folded in. */
  async state(streamId: string): Promise<State> {
    await this.load([streamId]);
    return this.#streams.get(streamId)!.state;
  }

  /**
   * Decides `command` against the stream's state in memory; the events are folded in and wait for `flush`.
   * Answers the refusal instead of throwing, so one refused stake does not stop the batch.
   */
  async decide(
    streamId: string,
    command: Command,
    metadata: CommandMetadata,
  ): Promise<{ ok: true; events: readonly Event[] } | { ok: false; refusal: DomainError }> {
    await this.load([streamId]);
    const loaded = this.#streams.get(streamId)!;
    const decision = this.decider.decide(command, loaded.state);
    if (isLeft(decision)) return { ok: false, refusal: decision.left };
    const events = decision.right;
    for (const event of events) {
      loaded.state = this.decider.evolve(loaded.state, event);
      loaded.pending.push(toNewEvent(event, metadata));
    }
    return { ok: true, events };
  }

  /** Streams with decided events not yet written. */
  get pendingStreams(): string[] {
    return [...this.#streams].filter(([, s]) => s.pending.length > 0).map(([id]) => id);
  }

  /**
   * Appends every stream's decided events in one statement (in the batch's transaction when it has one). The states
   * in memory stay, expecting the revisions just written, so the batch can go on deciding.
   */
  async flush(): Promise<StreamAppendResult[]> {
    const appends = [...this.#streams]
      .filter(([, s]) => s.pending.length > 0)
      .map(([streamId, s]) => ({ streamId, events: s.pending, expectedVersion: s.expectedVersion }));
    if (appends.length === 0) return [];
    const results = await this.store.appendToStreams(
      appends,
      this.transaction ? { transaction: this.transaction } : {},
    );
    for (const result of results) {
      const loaded = this.#streams.get(result.streamId)!;
      loaded.expectedVersion = result.nextExpectedRevision;
      loaded.pending = [];
    }
    return results;
  }
}
