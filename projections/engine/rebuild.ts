import { type Kysely, sql, type Transaction } from 'kysely';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';
import { type Checkpoint, newCheckpoint, readCheckpoint, writeCheckpoints } from './checkpoints.ts';
import { describeError, Engine } from './engine.ts';
import type { FaultPolicy } from './fault-tracker.ts';
import { inSwapTransaction } from './inline-projections.ts';
import { listPoisonedEvents, type PoisonReport, recordPoisonedEvent, resolvePoisonedEvent } from './poisoned-events.ts';
import { handles, typesToRead } from './processor.ts';
import { fieldsLeftOut, liveTableNames, type Projector, projectorProcessor, type TableNames } from './projector.ts';
import { advance } from './step.ts';
import { isTransientDatabaseError } from '../transient-error.ts';

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
  readonly onProgress?: ((eventsApplied: number) => void) | undefined;
  readonly faultPolicy: FaultPolicy;
}

/** One read model being rebuilt: its fresh tables and scratch checkpoint, and what the replay passed so far. */
interface RebuildJob {
  readonly projector: Projector;
  readonly generation: number;
  readonly tables: TableNames;
  readonly scratchName: string;
  readonly started: number;
  readonly passed: PoisonReport[];
  applied: number;
  /** Events applied at which the fresh tables are next vacuumed and analyzed (doubling, see maintainIfDue). */
  maintainAt: number;
}

/**
 * How many engines replay the copies side by side. One engine steps its copies in one transaction on one connection,
 * so a whole rebuild kept one PostgreSQL backend busy while Node waited (the 1M log: 72% of Node's samples idle, one
 * backend at 70% of a core). Two lanes use two backends; each lane reads the log once for its own copies.
 */
const REBUILD_LANES = 2;

/**
 * Builds fresh copies of read models from position 0 beside the live ones, then swaps each in atomically (Marten's
 * blue/green rebuild):
 * 1. create generation-suffixed tables and a scratch checkpoint per copy, and replay the log into them on engines
 *    running side by side (REBUILD_LANES; each copy one processor of one of them, each reading the log once for its
 *    copies), while the live copies keep serving;
 * 2. per copy, in one transaction: lock the live checkpoint (the live engine waits), apply the last few events, drop
 *    the live tables, rename the fresh ones to the live names and move the live checkpoint to where the copy stands.
 * A crash leaves the live copy untouched (the next rebuild drops the leftovers). A refused event is passed as live,
 * and recorded as poisoned at the swap; one recorded before that the copy applied is marked replayed.
 */
export async function rebuildProjections(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  projectors: readonly Projector[],
  options: RebuildOptions,
): Promise<RebuildResult[]> {
  const jobs: RebuildJob[] = [];
  for (const projector of projectors) jobs.push(await beginRebuild(db, projector, options.now()));
  const replays = jobs.map((job) => {
    const copy = { name: job.scratchName, tables: job.tables, replaying: true, failure: options.faultPolicy };
    const pass = async (report: PoisonReport) => void job.passed.push(report);
    const processor = projectorProcessor(job.projector, copy, pass, (events) => {
      job.applied += events.length;
      options.onProgress?.(job.applied);
    });
    return { job, processor };
  });
  // The copies dealt to the lanes in turn; each lane an engine of its own (its own connection), all drained together.
  const lanes = Array.from({ length: Math.min(REBUILD_LANES, replays.length) }, (_, lane) =>
    replays.filter((_, i) => i % REBUILD_LANES === lane),
  );
  await Promise.all(
    lanes.map((lane) =>
      new Engine({
        db,
        store,
        batchSize: options.batchSize,
        now: options.now,
        processors: lane.map((r) => r.processor),
      }).drain(async () => {
        for (const { job } of lane) await maintainIfDue(db, job);
      }),
    ),
  );
  const results: RebuildResult[] = [];
  for (const job of jobs) {
    await vacuumAndAnalyze(db, job.tables);
    await job.projector.finishReplay?.(db, job.tables);
    results.push(await swapIn(db, store, job, options));
  }
  return results;
}

async function beginRebuild(db: Kysely<object>, projector: Projector, now: Date): Promise<RebuildJob> {
  const started = performance.now();
  const generation = ((await readCheckpoint(db, projector.name))?.generation ?? 0) + 1;
  const tables: TableNames = Object.fromEntries(projector.tables.map((t) => [t, `${t}__g${generation}`]));
  const scratchName = `${projector.name}#rebuild`;
  // A crashed rebuild's copy is dropped: its rows and its checkpoint start over.
  for (const name of Object.values(tables)) await sql`DROP TABLE IF EXISTS ${sql.table(name)} CASCADE`.execute(db);
  await projector.createTables(db, tables);
  await writeCheckpoints(db, [newCheckpoint(scratchName, projector.version, now, generation)]);
  return { projector, generation, tables, scratchName, started, passed: [], applied: 0, maintainAt: 4_000 };
}

/** The swap: the last events and the rename, in one transaction with the live checkpoint locked. */
async function swapIn(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  job: RebuildJob,
  options: RebuildOptions,
): Promise<RebuildResult> {
  const { projector, tables, scratchName, generation, passed } = job;
  const { eventsApplied } = await inSwapTransaction(db, projector, async (tx) => {
    await readCheckpoint(tx, projector.name, { lock: true });
    const copy = await readCheckpoint(tx, scratchName, { lock: true });
    if (!copy) throw new Error(`Rebuild of ${projector.name} lost its scratch checkpoint`);
    const caughtUp = await catchUpInTransaction(tx, store, projector, tables, copy, {
      ...options,
      onPoisoned: async (event, error) => {
        const now = options.now();
        const report = { projection: projector.name, event, error: describeError(error), attempts: 1 };
        passed.push({ ...report, firstSeenAt: now, lastSeenAt: now });
      },
    });
    for (const [logical, live] of Object.entries(liveTableNames(projector))) {
      await sql`DROP TABLE IF EXISTS ${sql.table(live)} CASCADE`.execute(tx);
      await sql`ALTER TABLE ${sql.table(tables[logical]!)} RENAME TO ${sql.table(live)}`.execute(tx);
    }
    const swapped = { ...caughtUp, name: projector.name, version: projector.version, generation };
    await writeCheckpoints(tx, [swapped]);
    await sql`DELETE FROM processor_checkpoints WHERE name = ${scratchName}`.execute(tx);
    // Events recorded before that the copy did not pass again, it has applied: they are no longer missing.
    const known = await listPoisonedEvents(tx, { projection: projector.name, status: ['poisoned', 'skipped'] });
    const passedIds = new Set(passed.map((report) => report.event.metadata.eventId));
    for (const { id, eventId, eventType } of known) {
      if (handles(projector, eventType) && !passedIds.has(eventId))
        await resolvePoisonedEvent(tx, id, 'replayed', options.now());
    }
    for (const report of passed) await recordPoisonedEvent(tx, report);
    return swapped;
  });
  const seconds = (performance.now() - job.started) / 1000;
  return { name: projector.name, eventsApplied, generation, seconds, poisoned: passed.length };
}

/**
 * Applies every remaining event inside a transaction the caller holds (a rebuild's final catch-up under the live
 * checkpoint's lock), a batch per savepoint: a refused batch is rolled back and retried one event at a time, and an
 * event refused on its own is passed to `onPoisoned` at once (the transaction holds the live copy's lock). A
 * transient fault ends the transaction, so it is rethrown. Returns the advanced checkpoint.
 */
export async function catchUpInTransaction(
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
  projector: Projector,
  tables: TableNames,
  from: Checkpoint,
  options: Pick<RebuildOptions, 'batchSize' | 'now'> & {
    onPoisoned(event: RecordedEvent, error: unknown): Promise<void>;
  },
): Promise<Checkpoint> {
  let checkpoint = from;
  /** Applies `events` under a savepoint; answers the refusal, or null once they are applied. */
  const apply = async (events: readonly RecordedEvent[]) => {
    await sql`SAVEPOINT projection_batch`.execute(tx);
    try {
      await projector.apply(events, { tx, tables, announce: () => {} });
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT projection_batch`.execute(tx);
      if (isTransientDatabaseError(error)) throw error;
      return error;
    }
    await sql`RELEASE SAVEPOINT projection_batch`.execute(tx);
    checkpoint = advance(checkpoint, events.length, events.at(-1)!.position, options.now());
    return null;
  };
  for (;;) {
    const events = await store.readAll({
      after: checkpoint.position,
      maxCount: options.batchSize,
      transaction: tx,
      withoutFields: fieldsLeftOut(projector),
      eventTypes: typesToRead([projector.eventTypes]),
    });
    if (events.length === 0) return checkpoint;
    if ((await apply(events)) === null) continue;
    for (const event of events) {
      const refused = await apply([event]);
      if (refused === null) continue;
      await options.onPoisoned(event, refused);
      checkpoint = advance(checkpoint, 0, event.position, options.now());
    }
  }
}

/**
 * A rebuild fills tables that started empty, and updates its rows many times over (a goal's progress with each run):
 * without statistics PostgreSQL plans for the empty table it saw first, and a prepared statement keeps that plan; dead
 * row versions pile up. Autovacuum would see to both in time, and a rebuild outruns it. Vacuumed first after 4,000
 * events, then each time the count doubles: a few passes over the final size.
 */
async function maintainIfDue(db: Kysely<object>, job: RebuildJob): Promise<void> {
  if (job.applied < job.maintainAt) return;
  job.maintainAt *= 2;
  await vacuumAndAnalyze(db, job.tables);
}

async function vacuumAndAnalyze(db: Kysely<object>, tables: TableNames): Promise<void> {
  for (const name of Object.values(tables)) await sql`VACUUM (ANALYZE) ${sql.table(name)}`.execute(db);
}
