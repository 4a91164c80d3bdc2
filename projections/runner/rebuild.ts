import { type Kysely, type Transaction, sql } from 'kysely';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { applyNextBatch, catchUpInTransaction } from './apply-batch.ts';
import { type Checkpoint, deleteCheckpoint, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { type Projector, type TableNames, liveTableNames, rebuildTableNames } from './projector.ts';

export interface RebuildResult {
  readonly name: string;
  readonly eventsApplied: number;
  readonly generation: number;
  readonly seconds: number;
}

interface RebuildOptions {
  readonly batchSize: number;
  readonly now: () => Date;
  readonly onProgress?: (eventsApplied: number) => void;
}

/**
 * Builds a fresh copy of a read model from position 0 beside the live one, then swaps it in atomically:
 * 1. create generation-suffixed tables and a scratch checkpoint, and replay the log into them (the live copy keeps
 *    serving and updating meanwhile);
 * 2. in one transaction: lock the live checkpoint (the live runner waits), apply the last few events, drop the live
 *    tables, rename the fresh ones to the live names and move the live checkpoint to where the copy stands.
 * A crash at any point leaves the live copy untouched; leftovers of a crashed rebuild are dropped on the next one.
 */
export async function rebuildProjection(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  projector: Projector,
  options: RebuildOptions,
): Promise<RebuildResult> {
  const started = performance.now();
  const live = await readCheckpoint(db, projector.name);
  const generation = (live?.generation ?? 0) + 1;
  const tables = rebuildTableNames(projector, generation);
  const scratchName = `${projector.name}#rebuild`;

  await dropTables(db, tables);
  await projector.createTables(db, tables);
  const scratch: Checkpoint = {
    name: scratchName,
    position: null,
    globalPosition: 0,
    eventsApplied: 0,
    version: projector.version,
    generation,
    updatedAt: options.now(),
  };
  await writeCheckpoint(db, scratch);

  const target = { projector, checkpointName: scratchName, tables, announce: false };
  let applied = 0;
  for (;;) {
    const n = await applyNextBatch(db, store, target, options);
    if (n === 0) break;
    applied += n;
    options.onProgress?.(applied);
  }

  const final = await db.transaction().execute(async (tx) => {
    await readCheckpoint(tx, projector.name, { lock: true });
    const copy = await readCheckpoint(tx, scratchName, { lock: true });
    if (!copy) throw new Error(`Rebuild of ${projector.name} lost its scratch checkpoint`);
    const caughtUp = await catchUpInTransaction(tx, store, projector, tables, copy, options);
    await swapTables(tx, projector, tables);
    const swapped = { ...caughtUp, name: projector.name, version: projector.version, generation };
    await writeCheckpoint(tx, swapped);
    await deleteCheckpoint(tx, scratchName);
    return swapped;
  });

  return {
    name: projector.name,
    eventsApplied: final.eventsApplied,
    generation,
    seconds: (performance.now() - started) / 1000,
  };
}

async function swapTables(tx: Transaction<object>, projector: Projector, fresh: TableNames): Promise<void> {
  const live = liveTableNames(projector);
  for (const logical of projector.tables) {
    await sql`DROP TABLE IF EXISTS ${sql.table(live[logical]!)} CASCADE`.execute(tx);
    await sql`ALTER TABLE ${sql.table(fresh[logical]!)} RENAME TO ${sql.table(live[logical]!)}`.execute(tx);
  }
}

async function dropTables(db: Kysely<object>, tables: TableNames): Promise<void> {
  for (const name of Object.values(tables)) {
    await sql`DROP TABLE IF EXISTS ${sql.table(name)} CASCADE`.execute(db);
  }
}
