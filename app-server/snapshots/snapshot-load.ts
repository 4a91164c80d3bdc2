import { sql, type Transaction } from 'kysely';
import type { Decider } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';
import type { LoadedAggregate } from '../commands/execute-command.ts';

type Tx = Transaction<object>;

/** How a stream's state is kept as JSON, and which shape of it this code reads and writes. */
export interface SnapshotCodec<State, Json> {
  readonly version: number;
  encode(state: State): Json;
  decode(json: Json): State;
  /** A snapshot is written once this many events have been appended since the last one. */
  readonly every: number;
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
  const { rows } = await sql<{ stream_id: string; revision: string | number; state: J }>`
    SELECT stream_id, revision, state FROM stream_snapshots
    WHERE stream_id = ANY(${ids}::text[]) AND version = ${codec.version}`.execute(tx);
  const snapshots = new Map(rows.map((r) => [r.stream_id, r]));
  const fromRevisions = new Map(rows.map((r) => [r.stream_id, Number(r.revision) + 1]));
  const after = await store.readStreams(ids, { transaction: tx, fromRevisions });
  for (const id of ids) {
    const snapshot = snapshots.get(id);
    const snapshotRevision = snapshot ? Number(snapshot.revision) : -1;
    let state = snapshot ? codec.decode(snapshot.state) : decider.initialState;
    const events = after.get(id) ?? [];
    for (const e of events) state = decider.evolve(state, { type: e.type, data: e.data } as E);
    const last = events.at(-1)?.streamRevision ?? snapshotRevision;
    loaded.set(id, { state, expectedVersion: last >= 0 ? last : 'no_stream', snapshotRevision });
  }
  return loaded;
}

/** snapshotIfDue for many streams, in one statement. */
export async function snapshotsIfDue<S, J>(
  tx: Tx,
  codec: SnapshotCodec<S, J>,
  written: readonly {
    readonly streamId: string;
    readonly loaded: { readonly snapshotRevision: number };
    readonly state: S;
    readonly revision: number;
  }[],
): Promise<void> {
  const due = written.filter((w) => w.revision - w.loaded.snapshotRevision >= codec.every);
  if (due.length === 0) return;
  await sql`
    INSERT INTO stream_snapshots (stream_id, version, revision, state)
    SELECT s.stream_id, ${codec.version}, s.revision, s.state::jsonb
    FROM unnest(${due.map((d) => d.streamId)}::text[], ${due.map((d) => d.revision)}::bigint[],
                ${due.map((d) => JSON.stringify(codec.encode(d.state)))}::text[]) AS s(stream_id, revision, state)
    ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, revision = EXCLUDED.revision,
      state = EXCLUDED.state, taken_at = now()
    WHERE stream_snapshots.version <> EXCLUDED.version OR stream_snapshots.revision < EXCLUDED.revision`.execute(tx);
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
