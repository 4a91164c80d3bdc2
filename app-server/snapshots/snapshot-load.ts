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
