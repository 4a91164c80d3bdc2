import { isLeft } from 'fp-ts/lib/Either.js';
import type { Transaction } from 'kysely';
import type { Decider, DomainError } from '../../domain/shared/decider.ts';
import type {
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  StreamAppendResult,
} from '../../domain/shared/event-store.ts';
import { type CommandMetadata, toNewEvent } from './event-metadata.ts';
import type { DomainEvent } from './execute-command.ts';
import { type RememberedState, type StreamStateCache, streamStateCache } from './stream-state-cache.ts';

type Tx = Transaction<object>;

/** A stream `flush` wrote: the store's answer, and the id of the newest event written (what a cache checks later). */
export interface WrittenStream extends StreamAppendResult {
  readonly lastEventId: string;
}

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
 *
 * With `rememberStates`, states read or written are kept for the next batch on the same store and decider
 * (stream-state-cache.ts), which then reads each stream only from the revision it remembers.
 */
export class DecisionBatch<Command, Event extends DomainEvent, State> {
  readonly #streams = new Map<string, Loaded<State>>();
  readonly store: EventStore<Tx>;
  readonly decider: Decider<Command, Event, State>;
  readonly transaction: Tx | undefined;
  readonly #remembered: StreamStateCache<State> | null;

  constructor(
    store: EventStore<Tx>,
    decider: Decider<Command, Event, State>,
    transaction?: Tx,
    options: { readonly rememberStates?: boolean } = {},
  ) {
    this.store = store;
    this.decider = decider;
    this.transaction = transaction;
    this.#remembered = options.rememberStates ? streamStateCache<State>(store, decider) : null;
  }

  /** Reads the streams not read yet, all in one query (remembered ones only from their remembered revision). */
  async load(streamIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(streamIds)].filter((id) => !this.#streams.has(id));
    if (missing.length === 0) return;
    const remembered = new Map<string, RememberedState<State>>();
    for (const id of missing) {
      const entry = this.#remembered?.use(id);
      if (entry) remembered.set(id, entry);
    }
    const fromRevisions = new Map([...remembered].map(([id, entry]) => [id, entry.revision]));
    const read = await this.#read(missing, fromRevisions);
    const unsure: string[] = [];
    for (const [id, history] of read) {
      const entry = remembered.get(id);
      if (!entry) {
        this.#fold(id, this.decider.initialState, history);
      } else if (history[0]?.streamRevision === entry.revision && history[0].metadata.eventId === entry.eventId) {
        this.#fold(id, entry.state, history.slice(1), entry);
      } else {
        // Not the event remembered (a rolled-back write, another database): read the stream whole.
        this.#remembered!.delete(id);
        unsure.push(id);
      }
    }
    if (unsure.length === 0) return;
    for (const [id, history] of await this.#read(unsure, new Map())) this.#fold(id, this.decider.initialState, history);
  }

  #read(streamIds: readonly string[], fromRevisions: ReadonlyMap<string, number>) {
    return this.store.readStreams(streamIds, {
      ...(this.transaction ? { transaction: this.transaction } : {}),
      ...(fromRevisions.size > 0 ? { fromRevisions } : {}),
    });
  }

  /** Folds `history` onto `state` (read after `since`, when remembered) and keeps the result, remembered too. */
  #fold(streamId: string, state: State, history: readonly RecordedEvent[], since?: RememberedState<State>): void {
    let folded = state;
    for (const e of history) folded = this.decider.evolve(folded, { type: e.type, data: e.data } as Event);
    const last = history[history.length - 1];
    const revision = last ? last.streamRevision : since ? since.revision : null;
    this.#streams.set(streamId, { state: folded, expectedVersion: revision ?? 'no_stream', pending: [] });
    if (last)
      this.#remembered?.set(streamId, {
        state: folded,
        revision: last.streamRevision,
        eventId: last.metadata.eventId,
      });
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
  async flush(): Promise<WrittenStream[]> {
    const appends = [...this.#streams]
      .filter(([, s]) => s.pending.length > 0)
      .map(([streamId, s]) => ({ streamId, events: s.pending, expectedVersion: s.expectedVersion }));
    if (appends.length === 0) return [];
    const results = await this.store.appendToStreams(
      appends,
      this.transaction ? { transaction: this.transaction } : {},
    );
    const written: WrittenStream[] = [];
    for (const result of results) {
      const loaded = this.#streams.get(result.streamId)!;
      const eventId = loaded.pending.at(-1)!.metadata.eventId;
      written.push({ ...result, lastEventId: eventId });
      loaded.expectedVersion = result.nextExpectedRevision;
      loaded.pending = [];
      // Remembered as written; if the batch's transaction rolls back, the next load finds another event there.
      this.#remembered?.set(result.streamId, {
        state: loaded.state,
        revision: result.nextExpectedRevision,
        eventId,
      });
    }
    return written;
  }
}
