/**
 * The event-store port: the only contract the rest of the system relies on for storing and reading events. Storage
 * only: following the log (checkpoints, batches, retries) is the processing engine's (projections/engine/).
 * Types only (plus one pure error class), so `domain/` stays free of I/O. Adapters live in
 * `app-server/adapters/event-store/` (PostgreSQL/PGlite through kysely, and KurrentDB).
 */

/** Metadata carried by every event, whatever its type. */
export interface EventMetadata {
  /** Unique id of this event (UUID); re-appending the same id is a no-op. */
  readonly eventId: string;
  /** When the fact happened, ISO-8601 with offset, from the injected clock. */
  readonly occurredAt: string;
  /** The user (or 'system:<process>') who caused it; null when unknown. */
  readonly actorId: string | null;
  /** Ties together every event caused by one request or process run. */
  readonly correlationId: string;
  /** The event or command id that directly caused this one; null for a user's command. */
  readonly causationId: string | null;
  /** Version of this event type's data shape; older versions are upcast on read. */
  readonly schemaVersion: number;
}

/** An event about to be appended. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
  readonly metadata: EventMetadata;
}

/**
 * A position in the global log. `commit` orders transactions (PostgreSQL: the writing transaction's id; KurrentDB:
 * the commit position), `prepare` orders events within one (PostgreSQL: the global sequence number). Positions
 * compare lexicographically; a reader that has seen position p will never later see an event at or before p.
 */
export interface LogPosition {
  readonly commit: number;
  readonly prepare: number;
}

/** An event as stored, with where it sits in its stream and in the global log. */
export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  readonly streamId: string;
  /** 0-based index of the event within its stream. */
  readonly streamRevision: number;
  readonly position: LogPosition;
  /** A monotonically increasing number for display and read-your-writes (PostgreSQL: the sequence number). */
  readonly globalPosition: number;
  /** When the store recorded it (ISO-8601). */
  readonly recordedAt: string;
}

/**
 * What the writer believes about the stream: 'any' (no check), 'no_stream' (must not exist), 'stream_exists'
 * (must exist), or the exact revision of the stream's last event.
 */
export type ExpectedVersion = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendOptions<Tx = unknown> {
  /** Defaults to 'any'. */
  readonly expectedVersion?: ExpectedVersion;
  /** Append inside a transaction the caller already holds (same database adapters only). */
  readonly transaction?: Tx;
}

export interface AppendResult {
  /** Revision of the stream's last event after the append: pass it as the next expectedVersion. */
  readonly nextExpectedRevision: number;
  /** Global position of the last appended event. */
  readonly position: LogPosition;
  readonly globalPosition: number;
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  /** Defaults to 'any'. */
  readonly expectedVersion?: ExpectedVersion;
}

/** The result of a multi-stream append, per stream in the order the appends were given. */
export interface StreamAppendResult extends AppendResult {
  readonly streamId: string;
}

export interface ReadStreamOptions<Tx = unknown> {
  readonly direction?: 'forwards' | 'backwards';
  /** Revision to start from (inclusive); defaults to the start (forwards) or the end (backwards). */
  readonly fromRevision?: number;
  readonly maxCount?: number;
  /** Read inside a transaction the caller holds (a process manager deciding inside its batch's transaction). */
  readonly transaction?: Tx;
}

export interface ReadAllOptions<Tx = unknown> {
  /** Read events strictly after this position; from the beginning when absent. */
  readonly after?: LogPosition | null;
  readonly maxCount?: number;
  /**
   * Read inside a transaction the caller holds (same-database adapters): a projection rebuild does its final
   * catch-up and table swap in one transaction, and on PGlite (one session) a second connection would wait forever.
   */
  readonly transaction?: Tx;
  /**
   * Top-level `data` fields to leave out of every event read, for readers that never look at them: a run's GPS track
   * is most of its bytes, and only the runs read model keeps it. Left out before upcasting; absent, not null.
   */
  readonly withoutFields?: readonly string[];
  /**
   * Only events of these types (absent: every type). The log is still read in order and with the same guarantee: a
   * reader that got fewer than `maxCount` events has every event of these types up to the head that same read saw
   * (readAllToHead), and may move past them.
   */
  readonly eventTypes?: readonly string[];
}

/** Migrates an older event data shape to the next version; applied on every read path. */
export interface Upcaster {
  readonly eventType: string;
  /** The schemaVersion this upcaster reads; it produces fromVersion + 1. */
  readonly fromVersion: number;
  upcast(data: unknown): unknown;
}

/** A registered onAppended wake-up. */
export interface AppendedListener {
  /** Resolves once notifications are flowing (never rejects: a listener that cannot listen wakes on its timeouts). */
  readonly ready: Promise<void>;
  readonly remove: () => void;
}

export interface EventStore<Tx = unknown> {
  /** Appends events atomically to one stream, checking the expected version. */
  appendToStream(streamId: string, events: readonly NewEvent[], options?: AppendOptions<Tx>): Promise<AppendResult>;
  /**
   * Appends to several streams at once, all or nothing (one statement on PostgreSQL), each checking its own expected
   * version: a writer that settles many aggregates pays one round trip, not one per stream. A version that does not
   * hold rejects the whole call with a WrongExpectedVersionError naming that stream; a repeat answers with the
   * original results. Each stream may appear once.
   */
  appendToStreams(
    appends: readonly StreamAppend[],
    options?: { readonly transaction?: Tx },
  ): Promise<StreamAppendResult[]>;
  /** Reads one stream; an absent stream reads as []. */
  readStream(streamId: string, options?: ReadStreamOptions<Tx>): Promise<RecordedEvent[]>;
  /**
   * Reads several streams at once (one query on PostgreSQL), forwards: every id given is a key of the answer, an
   * absent stream with []. Each stream is read whole, or from its revision in `fromRevisions` (inclusive): what a
   * reader holding snapshots needs, the events after each snapshot.
   */
  readStreams(
    streamIds: readonly string[],
    options?: { readonly transaction?: Tx; readonly fromRevisions?: ReadonlyMap<string, number> },
  ): Promise<Map<string, RecordedEvent[]>>;
  /** Reads the global log forwards in commit order; never returns an event a still-open transaction may precede. */
  readAll(options?: ReadAllOptions<Tx>): Promise<RecordedEvent[]>;
  /**
   * readAll, and the newest position that same read could see (null: an empty log). A read of fewer than `maxCount`
   * events has every event of its types up to `head`: a follower with few types moves its position there. Only a head
   * read with the events is certain to be that: on PostgreSQL what one statement may see is not always a superset of
   * what an earlier one saw (a transaction of another database that ends while a statement looks holds that
   * statement's horizon back: visible-horizon.ts), so a head read first can lie past events the next read leaves out,
   * and a follower moving to it would never see them. CI lost events that way under load.
   */
  readAllToHead(
    options?: ReadAllOptions<Tx>,
  ): Promise<{ readonly events: RecordedEvent[]; readonly head: LogPosition | null }>;
  /**
   * Position of the newest event that readAll can return now; null for an empty log. With `committed`, the newest
   * committed event even when readAll cannot return it yet (an older transaction is still open): what a caller waits
   * for to know every append acknowledged so far has been seen.
   */
  headPosition(options?: { readonly committed?: boolean }): Promise<LogPosition | null>;
  /**
   * Registers a wake-up called after any append commits (on this or another server). `ready` resolves once wake-ups
   * flow: an append committed before then may send none, so read the log after `ready`, not before.
   */
  onAppended(listener: () => void): AppendedListener;
  close(): Promise<void>;
}

/** The expected version did not hold: another writer got there first. Retry from a fresh read, or answer 409. */
export class WrongExpectedVersionError extends Error {
  readonly streamId: string;
  readonly expected: ExpectedVersion;
  /** The stream's actual last revision, or -1 when the stream does not exist. */
  readonly actual: number;

  constructor(streamId: string, expected: ExpectedVersion, actual: number) {
    super(`Stream ${streamId}: expected version ${String(expected)} but it is at ${actual}`);
    this.name = 'WrongExpectedVersionError';
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * An append inside a caller's transaction reached a stream after a newer transaction had written to it: committing
 * would list the stream's events out of order in the global log (the log is ordered by transaction). Nothing was
 * written; retry the whole transaction, which then runs as the newer one. Only appends that join a caller's
 * transaction after that transaction already wrote something can meet this.
 */
export class StreamOrderConflictError extends Error {
  readonly streamId: string;

  constructor(streamId: string, cause?: unknown) {
    super(`Stream ${streamId}: a newer transaction wrote to it first; retry the transaction`, { cause });
    this.name = 'StreamOrderConflictError';
    this.streamId = streamId;
  }
}

/** Orders two log positions: negative when a is before b. */
export function comparePositions(a: LogPosition, b: LogPosition): number {
  return a.commit === b.commit ? a.prepare - b.prepare : a.commit - b.commit;
}

/**
 * `store` with its two appends replaced and everything else passed on as it is: a decorator that watches or wraps
 * writes (the inline projections, a request's record of what it appended) says only what it changes, and a new
 * option of a read reaches the store through every decorator (a hand-written pass-through once dropped
 * headPosition's `committed`).
 */
export function withAppends<Tx>(
  store: EventStore<Tx>,
  appends: Pick<EventStore<Tx>, 'appendToStream' | 'appendToStreams'>,
): EventStore<Tx> {
  return {
    appendToStream: appends.appendToStream,
    appendToStreams: appends.appendToStreams,
    readStream: (streamId, options) => store.readStream(streamId, options),
    readStreams: (streamIds, options) => store.readStreams(streamIds, options),
    readAll: (options) => store.readAll(options),
    readAllToHead: (options) => store.readAllToHead(options),
    headPosition: (options) => store.headPosition(options),
    onAppended: (listener) => store.onAppended(listener),
    close: () => store.close(),
  };
}
