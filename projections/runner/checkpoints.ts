import type { Kysely, Transaction } from 'kysely';
import type { LogPosition } from '../../domain/shared/event-store.ts';

/** One projection's progress through the global log. */
export interface Checkpoint {
  readonly name: string;
  /** null before the first event. */
  readonly position: LogPosition | null;
  readonly globalPosition: number;
  readonly eventsApplied: number;
  readonly version: number;
  readonly generation: number;
  readonly updatedAt: Date;
}

// A type alias, not an interface: kysely's withTables needs an index-signature-compatible shape.
type CheckpointTable = {
  projection_checkpoints: {
    name: string;
    commit_position: number | null;
    prepare_position: number | null;
    global_position: number;
    events_applied: number;
    version: number;
    generation: number;
    updated_at: Date;
  };
};

type Row = CheckpointTable['projection_checkpoints'];
type AnyDb = Kysely<object> | Transaction<object>;

function toCheckpoint(row: Row): Checkpoint {
  const position =
    row.commit_position === null || row.prepare_position === null
      ? null
      : { commit: row.commit_position, prepare: row.prepare_position };
  return {
    name: row.name,
    position,
    globalPosition: row.global_position,
    eventsApplied: row.events_applied,
    version: row.version,
    generation: row.generation,
    updatedAt: row.updated_at,
  };
}

/** Reads a checkpoint, locking its row when inside a transaction that will move it (serialises runners). */
export async function readCheckpoint(
  db: AnyDb,
  name: string,
  options: { lock?: boolean } = {},
): Promise<Checkpoint | null> {
  let query = db
    .withTables<CheckpointTable>()
    .selectFrom('projection_checkpoints')
    .selectAll()
    .where('name', '=', name);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toCheckpoint(row) : null;
}

/** All checkpoints, by name. */
export async function readAllCheckpoints(db: AnyDb): Promise<Checkpoint[]> {
  const rows = await db
    .withTables<CheckpointTable>()
    .selectFrom('projection_checkpoints')
    .selectAll()
    .orderBy('name')
    .execute();
  return rows.map(toCheckpoint);
}

/**
 * Locks several checkpoint rows at once, in name order (two runners locking overlapping sets in the same order
 * cannot deadlock), and returns them by name. One statement for a whole group of projections.
 */
export async function lockCheckpoints(
  tx: Transaction<object>,
  names: readonly string[],
): Promise<Map<string, Checkpoint>> {
  const rows = await tx
    .withTables<CheckpointTable>()
    .selectFrom('projection_checkpoints')
    .selectAll()
    .where('name', 'in', names)
    .orderBy('name')
    .forUpdate()
    .execute();
  return new Map(rows.map((row) => [row.name, toCheckpoint(row)]));
}

/** Creates or replaces a checkpoint row. */
export async function writeCheckpoint(db: AnyDb, checkpoint: Checkpoint): Promise<void> {
  await writeCheckpoints(db, [checkpoint]);
}

/** Creates or replaces several checkpoint rows in one statement. */
export async function writeCheckpoints(db: AnyDb, checkpoints: readonly Checkpoint[]): Promise<void> {
  if (checkpoints.length === 0) return;
  await db
    .withTables<CheckpointTable>()
    .insertInto('projection_checkpoints')
    .values(checkpoints.map(toRow))
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        commit_position: eb.ref('excluded.commit_position'),
        prepare_position: eb.ref('excluded.prepare_position'),
        global_position: eb.ref('excluded.global_position'),
        events_applied: eb.ref('excluded.events_applied'),
        version: eb.ref('excluded.version'),
        generation: eb.ref('excluded.generation'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

function toRow(checkpoint: Checkpoint): Row {
  return {
    name: checkpoint.name,
    commit_position: checkpoint.position?.commit ?? null,
    prepare_position: checkpoint.position?.prepare ?? null,
    global_position: checkpoint.globalPosition,
    events_applied: checkpoint.eventsApplied,
    version: checkpoint.version,
    generation: checkpoint.generation,
    updated_at: checkpoint.updatedAt,
  };
}

/** Removes a checkpoint (the scratch checkpoint of a finished or abandoned rebuild). */
export async function deleteCheckpoint(db: AnyDb, name: string): Promise<void> {
  await db.withTables<CheckpointTable>().deleteFrom('projection_checkpoints').where('name', '=', name).execute();
}
