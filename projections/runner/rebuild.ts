import { type Kysely, type Transaction, sql } from 'kysely';
import type { EventStore, LogPosition, RecordedEvent } from '../../domain/shared/event-store.ts';
import { applyBatch, type BatchTarget, catchUpInTransaction } from './apply-batch.ts';
import { earliestPosition, eventsAfter } from './apply-together.ts';
import { type Checkpoint, deleteCheckpoint, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { type FaultPolicy, FaultTracker } from './fault-tracker.ts';
import { type PoisonReport, listPoisonedEvents, recordPoisonedEvent, resolvePoisonedEvent } from './poisoned-events.ts';
import { fieldsLeftOut, type Projector, type TableNames, liveTableNames, rebuildTableNames } from './projector.ts';
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

/** One read model being rebuilt: its fresh tables and scratch checkpoint, and what the replay met so far. */
interface RebuildJob {
  readonly projector: Projector;
  readonly generation: number;
  readonly tables: TableNames;
  readonly scratchName: string;
  readonly target: BatchTarget;
  readonly started: number;
  /** Poisoned or skipped events recorded before, by event id: the ones this rebuild applies are no longer missing. */
  readonly known: ReadonlyMap<string, number>;
  readonly nowApplied: Set<number>;
  readonly passed: PoisonReport[];
  applied: number;
  /** Events applied at which the fresh tables are next vacuumed and analyzed. */
  maintainAt: number;
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
  const [result] = await rebuildProjections(db, store, [projector], options);
  return result!;
}

/**
 * Rebuilds several read models at once, reading the log once for all of them: each batch read is applied to every
 * copy, each in its own transaction with its own scratch checkpoint (so exactly-once holds per copy, as in a rebuild of
 * one), the copies' transactions side by side. Reading and decoding a million events costs about as much as one
 * simple projection's whole rebuild, so nine rebuilds one after another mostly read the same log nine times. A copy
 * whose batch fails leaves the shared replay and finishes alone, where a refused event is narrowed down and passed
 * (step-past-faults.ts); then each copy is swapped in as above. Results in the order of `projectors`.
 */
export async function rebuildProjections(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  projectors: readonly Projector[],
  options: RebuildOptions,
): Promise<RebuildResult[]> {
  const jobs: RebuildJob[] = [];
  for (const projector of projectors) jobs.push(await beginRebuild(db, projector, options));
  const byFields = new Map<string, RebuildJob[]>();
  for (const job of jobs) {
    const key = fieldsLeftOut(job.projector).join(',');
    byFields.set(key, [...(byFields.get(key) ?? []), job]);
  }
  for (const group of byFields.values()) await replayTogether(db, store, group, options);
  const results: RebuildResult[] = [];
  for (const job of jobs) {
    await replayAlone(db, store, job, options);
    await job.projector.finishReplay?.(db, job.tables);
    results.push(await finishRebuild(db, store, job, options));
  }
  return results;
}

async function beginRebuild(db: Kysely<object>, projector: Projector, options: RebuildOptions): Promise<RebuildJob> {
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
  const known = new Map(
    (await listPoisonedEvents(db, { projection: projector.name, status: ['poisoned', 'skipped'] })).map((p) => [
      p.eventId,
      p.id,
    ]),
  );
  return {
    projector,
    generation,
    tables,
    scratchName,
    target: { projector, checkpointName: scratchName, tables, announce: false, recordPoison: false, replaying: true },
    started,
    known,
    nowApplied: new Set(),
    passed: [],
    applied: 0,
    maintainAt: FIRST_MAINTENANCE_AT,
  };
}

/** Notes a batch the copy applied: its count, and the known poisoned events among it. */
function noteApplied(job: RebuildJob, events: readonly RecordedEvent[], options: RebuildOptions): void {
  job.applied += events.length;
  noteKnownApplied(job, events);
  options.onProgress?.(job.applied);
}

/** Poisoned or skipped events recorded before that the copy has now applied: no longer missing once it is swapped in. */
function noteKnownApplied(job: RebuildJob, events: readonly RecordedEvent[]): void {
  for (const event of events) {
    const id = job.known.get(event.metadata.eventId);
    if (id !== undefined) job.nowApplied.add(id);
  }
}

/** Vacuums and analyzes the copy's tables when it has applied twice as many events as at the last time. */
async function maintainIfDue(db: Kysely<object>, job: RebuildJob): Promise<void> {
  if (job.applied < job.maintainAt) return;
  job.maintainAt *= 2;
  await vacuumAndAnalyze(db, job.tables);
}

/** The copies of `jobs` (which leave out the same fields of the log) replayed over one read of each batch. */
async function replayTogether(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  jobs: readonly RebuildJob[],
  options: RebuildOptions,
): Promise<void> {
  if (jobs.length < 2) return;
  const withoutFields = fieldsLeftOut(jobs[0]!.projector);
  // Every copy starts at the beginning of the log (its scratch checkpoint was just written at position 0).
  const members = jobs.map((job) => ({ job, position: null as LogPosition | null, replaying: true }));
  for (;;) {
    const replaying = members.filter((m) => m.replaying);
    if (replaying.length === 0) return;
    const after = earliestPosition(replaying.map((m) => m.position));
    const events = await store.readAll({ after, maxCount: options.batchSize, withoutFields });
    if (events.length === 0) return;
    await Promise.all(
      replaying.map(async (member) => {
        const own = eventsAfter(events, member.position);
        if (own.length === 0) return;
        try {
          // Its scratch checkpoint is locked and re-checked in the transaction, exactly once as in a lone rebuild.
          if ((await applyBatch(db, member.job.target, { after: member.position, events: own }, options.now())) === 0) {
            member.replaying = false;
            return;
          }
        } catch {
          // Finished alone (replayAlone), where the refusal is narrowed down to one event and passed, or retried.
          member.replaying = false;
          return;
        }
        member.position = own.at(-1)!.position;
        noteApplied(member.job, own, options);
      }),
    );
    for (const member of replaying) if (member.replaying) await maintainIfDue(db, member.job);
  }
}

/** Replays the rest of the log into one copy, passing events its projector refuses. */
async function replayAlone(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  job: RebuildJob,
  options: RebuildOptions,
): Promise<void> {
  await drainPastFaults(db, store, job.target, new FaultTracker(options.faultPolicy), {
    ...options,
    onApplied: (events) => noteApplied(job, events, options),
    onPoisoned: (report) => job.passed.push(report),
    betweenBatches: () => maintainIfDue(db, job),
  });
  await vacuumAndAnalyze(db, job.tables);
}

/** The swap: the last events and the rename, in one transaction with the live checkpoint locked. */
async function finishRebuild(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  job: RebuildJob,
  options: RebuildOptions,
): Promise<RebuildResult> {
  const { projector, tables, scratchName, generation, passed, nowApplied } = job;
  const final = await db.transaction().execute(async (tx) => {
    await readCheckpoint(tx, projector.name, { lock: true });
    const copy = await readCheckpoint(tx, scratchName, { lock: true });
    if (!copy) throw new Error(`Rebuild of ${projector.name} lost its scratch checkpoint`);
    const caughtUp = await catchUpInTransaction(tx, store, projector, tables, copy, {
      ...options,
      onApplied: (events) => noteKnownApplied(job, events),
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
    seconds: (performance.now() - job.started) / 1000,
    poisoned: passed.length,
  };
}

/** Events replayed before the fresh tables are first vacuumed and analyzed; then again each time the count doubles. */
const FIRST_MAINTENANCE_AT = 4_000;

/**
 * A rebuild fills tables that started empty, and updates its rows many times over (a goal's progress with each run):
 * without statistics PostgreSQL plans for the empty table it saw first, and a prepared statement keeps that plan; dead
 * row versions pile up. Autovacuum would see to both in time, and a rebuild outruns it (and some servers run without
 * it). Analyzing also makes PostgreSQL plan the prepared statements again. Doubling intervals keep the cost at a few
 * passes over the final size.
 */
async function vacuumAndAnalyze(db: Kysely<object>, tables: TableNames): Promise<void> {
  for (const name of Object.values(tables)) await sql`VACUUM (ANALYZE) ${sql.table(name)}`.execute(db);
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
