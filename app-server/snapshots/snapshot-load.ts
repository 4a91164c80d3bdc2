import { sql, type Transaction } from 'kysely';
import type { Decider } from '../../domain/shared/decider.ts';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';
import type { LoadedAggregate } from '../commands/execute-command.ts';
import { type RememberedState, type StreamStateCache, streamStateCache } from '../commands/stream-state-cache.ts';

type Tx = Transaction<object>;

/** How a stream's state is kept as JSON, and which shape of it this code reads and writes. */
export interface SnapshotCodec<State, Json> {
  readonly version: number;
  encode(state: State): Json;
  decode(json: Json): State;
  /** A snapshot is written once this many events have been appended since the last one. */
  readonly every: number;
  /**
   * How many streams' states loadManyWithSnapshots keeps in memory between loads (stream-state-cache.ts), each
   * then read only from the revision it remembers; none when absent. Only for streams without personal fields.
   */
  readonly remembered?: number;
}

/** A state kept between loads, with the revision its stream's newest snapshot covers (when the next is due). */
interface RememberedLoad<State> {
  readonly state: State;
  readonly snapshotRevision: number;
}

/** The codec's remembered states read through `store` (one cache per store and codec), or null when it keeps none. */
function rememberedLoads<S, J>(store: object, codec: SnapshotCodec<S, J>): StreamStateCache<RememberedLoad<S>> | null {
  return codec.remembered ? streamStateCache<RememberedLoad<S>>(store, codec, codec.remembered) : null;
}

/** What a load found, so the writer knows whether a new snapshot is due. */
export interface SnapshotLoaded<State> extends LoadedAggregate<State> {
  /** The revision the snapshot used covers (-1: none). */
  readonly snapshotRevision: number;
}

/**
 * A stream's state from its newest snapshot (if any, of this codec's version) plus the events after it: the same
 * state as folding the whole stream, without reading the whole stream. Inside `tx`, so a process manager deciding in
 * its batch's transaction sees its own snapshot writes.
 */
export async function loadWithSnapshot<C, E, S, J>(
  store: EventStore<Tx>,
  tx: Tx,
  decider: Decider<C, E, S>,
  codec: SnapshotCodec<S, J>,
  streamId: string,
): Promise<SnapshotLoaded<S>> {
  const { rows } = await sql<{ revision: string | number; state: J }>`
    SELECT revision, state FROM stream_snapshots WHERE stream_id = ${streamId} AND version = ${codec.version}`.execute(
    tx,
  );
  const snapshot = rows[0];
  const snapshotRevision = snapshot ? Number(snapshot.revision) : -1;
  let state = snapshot ? codec.decode(snapshot.state) : decider.initialState;
  const after = await store.readStream(streamId, { transaction: tx, fromRevision: snapshotRevision + 1 });
  for (const e of after) state = decider.evolve(state, { type: e.type, data: e.data } as E);
  const last = after.at(-1)?.streamRevision ?? snapshotRevision;
  return { state, expectedVersion: last >= 0 ? last : 'no_stream', snapshotRevision };
}

/**
 * Many streams' states at once, each as loadWithSnapshot gives it: their newest snapshots in one query, and the events
 * after each snapshot in one more (readStreams, each stream from its own revision). Every id asked for is a key.
 *
 * With `codec.remembered`, a stream whose state is remembered (stream-state-cache.ts) is read only from the revision
 * remembered, in the same readStreams, and its snapshot is not read: a ledger paid again and again reads one or two
 * events instead of up to `codec.every`. The first event read must be the one remembered (same revision, same event
 * id), else the entry is dropped and the stream loaded from its snapshot, as one never remembered.
 */
export async function loadManyWithSnapshots<C, E, S, J>(
  store: EventStore<Tx>,
  tx: Tx,
  decider: Decider<C, E, S>,
  codec: SnapshotCodec<S, J>,
  streamIds: readonly string[],
): Promise<Map<string, SnapshotLoaded<S>>> {
  const ids = [...new Set(streamIds)];
  const loaded = new Map<string, SnapshotLoaded<S>>();
  if (ids.length === 0) return loaded;
  const cache = rememberedLoads(store, codec);
  const remembered = new Map<string, RememberedState<RememberedLoad<S>>>();
  for (const id of ids) {
    const entry = cache?.use(id);
    if (entry) remembered.set(id, entry);
  }
  const fold = (id: string, state: S, events: readonly RecordedEvent[], revision: number, snapshotRevision: number) => {
    for (const e of events) state = decider.evolve(state, { type: e.type, data: e.data } as E);
    const last = events.at(-1);
    const at = last?.streamRevision ?? revision;
    loaded.set(id, { state, expectedVersion: at >= 0 ? at : 'no_stream', snapshotRevision });
    if (cache && last) {
      cache.set(id, {
        state: { state, snapshotRevision },
        revision: last.streamRevision,
        eventId: last.metadata.eventId,
      });
    }
  };
  let cold = ids.filter((id) => !remembered.has(id));
  // A remembered stream whose first event read is not the one remembered is loaded cold, in a second pass.
  for (let pass = 0; pass < 2 && (cold.length > 0 || (pass === 0 && remembered.size > 0)); pass++) {
    const snapshots = await snapshotsOf(tx, codec, cold);
    const fromRevisions = new Map<string, number>();
    for (const [id, snapshot] of snapshots) fromRevisions.set(id, snapshot.revision + 1);
    const warm = pass === 0 ? [...remembered] : [];
    for (const [id, entry] of warm) fromRevisions.set(id, entry.revision);
    const after = await store.readStreams([...cold, ...warm.map(([id]) => id)], { transaction: tx, fromRevisions });
    const unsure: string[] = [];
    for (const [id, entry] of warm) {
      const events = after.get(id) ?? [];
      if (events[0]?.streamRevision === entry.revision && events[0].metadata.eventId === entry.eventId) {
        fold(id, entry.state.state, events.slice(1), entry.revision, entry.state.snapshotRevision);
      } else {
        cache!.delete(id);
        unsure.push(id);
      }
    }
    for (const id of cold) {
      const snapshot = snapshots.get(id);
      const snapshotRevision = snapshot?.revision ?? -1;
      const state = snapshot ? codec.decode(snapshot.state) : decider.initialState;
      fold(id, state, after.get(id) ?? [], snapshotRevision, snapshotRevision);
    }
    cold = unsure;
  }
  return loaded;
}

/** The newest snapshots of `ids` of the codec's version, by stream id (one query; none for no ids). */
async function snapshotsOf<S, J>(
  tx: Tx,
  codec: SnapshotCodec<S, J>,
  ids: readonly string[],
): Promise<Map<string, { revision: number; state: J }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ stream_id: string; revision: string | number; state: J }>`
    SELECT stream_id, revision, state FROM stream_snapshots
    WHERE stream_id = ANY(${ids}::text[]) AND version = ${codec.version}`.execute(tx);
  return new Map(rows.map((r) => [r.stream_id, { revision: Number(r.revision), state: r.state }]));
}

/**
 * Remembers the states a writer just appended (with `codec.remembered`), so the next load reads from there: each
 * with the revision and id of the newest event written, and the revision its newest snapshot now covers. If the
 * writer's transaction rolls back, the next load finds another event (or none) at that revision and loads cold.
 */
export function rememberWritten<S, J>(
  store: object,
  codec: SnapshotCodec<S, J>,
  written: readonly {
    readonly streamId: string;
    readonly state: S;
    readonly revision: number;
    readonly eventId: string;
    readonly snapshotRevision: number;
  }[],
): void {
  const cache = rememberedLoads(store, codec);
  if (!cache) return;
  for (const w of written) {
    cache.set(w.streamId, {
      state: { state: w.state, snapshotRevision: w.snapshotRevision },
      revision: w.revision,
      eventId: w.eventId,
    });
  }
}

/** snapshotIfDue for many streams, in one statement; answers the ids whose snapshot was due (and written). */
export async function snapshotsIfDue<S, J>(
  tx: Tx,
  codec: SnapshotCodec<S, J>,
  written: readonly {
    readonly streamId: string;
    readonly loaded: { readonly snapshotRevision: number };
    readonly state: S;
    readonly revision: number;
  }[],
): Promise<Set<string>> {
  const due = written.filter((w) => w.revision - w.loaded.snapshotRevision >= codec.every);
  if (due.length === 0) return new Set();
  await sql`
    INSERT INTO stream_snapshots (stream_id, version, revision, state)
    SELECT s.stream_id, ${codec.version}, s.revision, s.state::jsonb
    FROM unnest(${due.map((d) => d.streamId)}::text[], ${due.map((d) => d.revision)}::bigint[],
                ${due.map((d) => JSON.stringify(codec.encode(d.state)))}::text[]) AS s(stream_id, revision, state)
    ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, revision = EXCLUDED.revision,
      state = EXCLUDED.state, taken_at = now()
    WHERE stream_snapshots.version <> EXCLUDED.version OR stream_snapshots.revision < EXCLUDED.revision`.execute(tx);
  return new Set(due.map((d) => d.streamId));
}

/** Writes the state at `revision` as the stream's snapshot when `codec.every` events were appended since the last. */
export async function snapshotIfDue<S, J>(
  tx: Tx,
  codec: SnapshotCodec<S, J>,
  streamId: string,
  loaded: { readonly snapshotRevision: number },
  state: S,
  revision: number,
): Promise<void> {
  if (revision - loaded.snapshotRevision < codec.every) return;
  await sql`
    INSERT INTO stream_snapshots (stream_id, version, revision, state)
    VALUES (${streamId}, ${codec.version}, ${revision}, ${JSON.stringify(codec.encode(state))}::jsonb)
    ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, revision = EXCLUDED.revision,
      state = EXCLUDED.state, taken_at = now()
    WHERE stream_snapshots.version <> EXCLUDED.version OR stream_snapshots.revision < EXCLUDED.revision`.execute(tx);
}
