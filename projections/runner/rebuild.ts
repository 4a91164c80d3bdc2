import { type Kysely, type Transaction, sql } from 'kysely';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';
import { catchUpInTransaction } from './apply-batch.ts';
import { type Checkpoint, deleteCheckpoint, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { type FaultPolicy, FaultTracker } from './fault-tracker.ts';
import { type PoisonReport, listPoisonedEvents, recordPoisonedEvent, resolvePoisonedEvent } from './poisoned-events.ts';
import { type Projector, type TableNames, liveTableNames, rebuildTableNames } from './projector.ts';
import { describeError, drainPastFaults } from './step-past-faults.ts';

export interface RebuildResult {
  readonly name: string;
  readonly eventsApplied: number;
  readonly generation: number;
  readonly seconds: number;
  /** Events the projector refused and the rebuild passed (recorded as poisoned at the swap). */
  readonly poisoned: number;
}

interface RebuildOptions {
  readonly batchSize: number;
  readonly now: () => Date;
  readonly onProgress?: (eventsApplied: number) => void;
  readonly faultPolicy?: FaultPolicy;
}

/**
 * Builds a fresh copy of a read model from position 0 beside the live one, then swaps it in atomically:
 * 1. create generation-suffixed tables and a scratch checkpoint, and replay the log into them (the live copy keeps
 *    serving and updating meanwhile);
 * 2. in one transaction: lock the live checkpoint (the live runner waits), apply the last few events, drop the live
 *    tables, rename the fresh ones to the live names and move the live checkpoint to where the copy stands.
 * A crash at any point leaves the live copy untouched; leftovers of a crashed rebuild are dropped on the next one.
 * An event the projector refuses does not stop a rebuild: it is passed like the live runner passes it, and recorded
 * as poisoned at the swap; a poisoned or skipped event that the rebuilt projector now applies is marked replayed.
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

  // Events recorded as poisoned or skipped before: the ones this rebuild applies are no longer missing.
  const known = new Map(
    (await listPoisonedEvents(db, { projection: projector.name, status: ['poisoned', 'skipped'] })).map((p) => [
      p.eventId,
      p.id,
    ]),
  );
  const nowApplied = new Set<number>();
  const noteApplied = (events: readonly RecordedEvent[]) => {
    for (const event of events) {
      const id = known.get(event.metadata.eventId);
      if (id !== undefined) nowApplied.add(id);
    }
  };
  const passed: PoisonReport[] = [];

  const target = { projector, checkpointName: scratchName, tables, announce: false, recordPoison: false };
  let applied = 0;
  await drainPastFaults(db, store, target, new FaultTracker(options.faultPolicy), {
    ...options,
    onApplied: (events) => {
      applied += events.length;
      noteApplied(events);
      options.onProgress?.(applied);
    },
    onPoisoned: (report) => passed.push(report),
  });

  const final = await db.transaction().execute(async (tx) => {
    await readCheckpoint(tx, projector.name, { lock: true });
    const copy = await readCheckpoint(tx, scratchName, { lock: true });
    if (!copy) throw new Error(`Rebuild of ${projector.name} lost its scratch checkpoint`);
    const caughtUp = await catchUpInTransaction(tx, store, projector, tables, copy, {
      ...options,
      onApplied: noteApplied,
      onPoisoned: async (event, error) => {
        const now = options.now();
        passed.push({
          projection: projector.name,
          event,
          error: describeError(error),
          attempts: 1,
          firstSeenAt: now,
          lastSeenAt: now,
        });
      },
    });
    await swapTables(tx, projector, tables);
    const swapped = { ...caughtUp, name: projector.name, version: projector.version, generation };
    await writeCheckpoint(tx, swapped);
    await deleteCheckpoint(tx, scratchName);
    for (const report of passed) await recordPoisonedEvent(tx, report);
    for (const id of nowApplied) await resolvePoisonedEvent(tx, id, 'replayed', options.now());
    return swapped;
  });

  return {
    name: projector.name,
    eventsApplied: final.eventsApplied,
    generation,
    seconds: (performance.now() - started) / 1000,
    poisoned: passed.length,
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
