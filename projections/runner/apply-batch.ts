import { type Kysely, type Transaction, sql } from 'kysely';
import {
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  comparePositions,
} from '../../domain/shared/event-store.ts';
import { type Checkpoint, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { ChangeAnnouncements } from './change-announcements.ts';
import { type PoisonReport, recordPoisonedEvent } from './poisoned-events.ts';
import { fieldsLeftOut, type Projector, type TableNames } from './projector.ts';
import { isTransientDatabaseError } from './transient-error.ts';

export interface BatchTarget {
  readonly projector: Projector;
  /** The checkpoint row this copy advances (the live name, or a rebuild's scratch name). */
  readonly checkpointName: string;
  readonly tables: TableNames;
  /** False for a rebuild copy: its rows are not live yet, so clients have nothing to refetch. */
  readonly announce?: boolean;
  /**
   * False for a rebuild copy: an event it passes is recorded as poisoned only when the copy is swapped in (until
   * then the live copy is what users see).
   */
  readonly recordPoison?: boolean;
  /** True for a rebuild copy being replayed (ProjectionContext.replaying). */
  readonly replaying?: boolean;
}

/** Events read after a checkpoint position, not applied yet. */
export interface PendingBatch {
  /** The checkpoint's position the events were read after (applying re-checks it under the lock). */
  readonly after: LogPosition | null;
  readonly events: readonly RecordedEvent[];
}

/**
 * Reads up to `maxCount` events after the target's checkpoint: after `knownPosition` when the caller knows where it
 * left the checkpoint (saves reading it on every wake-up; a stale one is caught by the lock when applying), else
 * after the stored one.
 */
export async function readNextBatch(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  target: BatchTarget,
  maxCount: number,
  knownPosition?: LogPosition | null,
): Promise<PendingBatch> {
  let after = knownPosition;
  if (after === undefined) {
    // Read outside the transaction: on PGlite (one session) a read through another connection would wait for it.
    const checkpoint = await readCheckpoint(db, target.checkpointName);
    if (!checkpoint) throw new Error(`Projection checkpoint ${target.checkpointName} is missing`);
    after = checkpoint.position;
  }
  const events = await store.readAll({
    after,
    maxCount,
    withoutFields: fieldsLeftOut(target.projector),
  });
  return { after, events };
}

/**
 * Applies a batch together with the new checkpoint in one transaction. The checkpoint row is locked and re-checked
 * inside the transaction, so two runners (two API instances, or a runner and a rebuild swap) never apply the same
 * batch twice: the loser sees a moved checkpoint and applies nothing. Returns the number of events applied.
 */
export async function applyBatch(
  db: Kysely<object>,
  target: BatchTarget,
  batch: PendingBatch,
  now: Date,
): Promise<number> {
  const { events } = batch;
  if (events.length === 0) return 0;
  return db.transaction().execute(async (tx) => {
    const locked = await readCheckpoint(tx, target.checkpointName, { lock: true });
    if (!locked || !samePosition(locked.position, batch.after)) return 0;
    const announcements = new ChangeAnnouncements();
    await target.projector.apply(events, {
      tx,
      tables: target.tables,
      announce: target.announce === false ? () => {} : (userId, topic) => announcements.add(userId, topic),
      replaying: target.replaying === true,
    });
    await writeCheckpoint(tx, advance(locked, events, now));
    await announcements.notify(tx);
    return events.length;
  });
}

/**
 * Moves the checkpoint past a batch's single event without applying it, recording it as poisoned in the same
 * transaction (so it is either passed and recorded, or neither). A rebuild copy passes without recording: its
 * rows are not live yet, and the rebuild records what it passed when it swaps the copy in. False when another
 * runner moved the checkpoint first.
 */
export async function passPoisonedEvent(
  db: Kysely<object>,
  target: BatchTarget,
  batch: PendingBatch,
  report: PoisonReport,
): Promise<boolean> {
  const event = batch.events[0];
  if (batch.events.length !== 1 || event?.metadata.eventId !== report.event.metadata.eventId) {
    throw new Error('Only a batch of the one poisoned event can be passed');
  }
  return db.transaction().execute(async (tx) => {
    const locked = await readCheckpoint(tx, target.checkpointName, { lock: true });
    if (!locked || !samePosition(locked.position, batch.after)) return false;
    if (target.recordPoison !== false) await recordPoisonedEvent(tx, report);
    await writeCheckpoint(tx, advance(locked, [], report.lastSeenAt, event));
    return true;
  });
}

/**
 * Applies every remaining event inside a transaction the caller holds (a rebuild's final catch-up under the live
 * checkpoint's lock). Each batch runs under a savepoint: a batch the projector refuses is rolled back to it and
 * retried one event at a time, and an event refused on its own is passed and handed to `onPoisoned` (no retries
 * here: the transaction holds the live copy's lock). A transient fault ends the transaction, so it is rethrown.
 * Returns the advanced checkpoint.
 */
export async function catchUpInTransaction(
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
  projector: Projector,
  tables: TableNames,
  from: Checkpoint,
  options: {
    batchSize: number;
    now: () => Date;
    onApplied?: (events: readonly RecordedEvent[]) => void;
    onPoisoned: (event: RecordedEvent, error: unknown) => Promise<void>;
  },
): Promise<Checkpoint> {
  let checkpoint = from;
  const apply = (events: readonly RecordedEvent[]) =>
    withSavepoint(tx, () => projector.apply(events, { tx, tables, announce: () => {} }));
  for (;;) {
    const events = await store.readAll({
      after: checkpoint.position,
      maxCount: options.batchSize,
      transaction: tx,
      withoutFields: fieldsLeftOut(projector),
    });
    if (events.length === 0) return checkpoint;
    try {
      await apply(events);
      checkpoint = advance(checkpoint, events, options.now());
      options.onApplied?.(events);
      continue;
    } catch (error) {
      if (isTransientDatabaseError(error)) throw error;
    }
    for (const event of events) {
      try {
        await apply([event]);
        checkpoint = advance(checkpoint, [event], options.now());
        options.onApplied?.([event]);
      } catch (error) {
        if (isTransientDatabaseError(error)) throw error;
        await options.onPoisoned(event, error);
        checkpoint = advance(checkpoint, [], options.now(), event);
      }
    }
  }
}

/** Runs `work` under a savepoint: on failure only its own statements are rolled back and the transaction lives on. */
async function withSavepoint(tx: Transaction<object>, work: () => Promise<void>): Promise<void> {
  await sql`SAVEPOINT projection_batch`.execute(tx);
  try {
    await work();
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT projection_batch`.execute(tx);
    throw error;
  }
  await sql`RELEASE SAVEPOINT projection_batch`.execute(tx);
}

/** The checkpoint after `applied` events, or after `passed` (an event moved past without being applied). */
export function advance(
  checkpoint: Checkpoint,
  applied: readonly { position: LogPosition; globalPosition: number }[],
  now: Date,
  passed?: { position: LogPosition; globalPosition: number },
): Checkpoint {
  const last = passed ?? applied[applied.length - 1]!;
  return {
    ...checkpoint,
    position: last.position,
    globalPosition: last.globalPosition,
    eventsApplied: checkpoint.eventsApplied + applied.length,
    updatedAt: now,
  };
}

export function samePosition(a: LogPosition | null, b: LogPosition | null): boolean {
  if (a === null || b === null) return a === b;
  return comparePositions(a, b) === 0;
}
