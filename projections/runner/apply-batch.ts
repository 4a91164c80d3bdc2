import type { Kysely, Transaction } from 'kysely';
import { type EventStore, type LogPosition, comparePositions } from '../../domain/shared/event-store.ts';
import { type Checkpoint, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { ChangeAnnouncements } from './change-announcements.ts';
import type { Projector, TableNames } from './projector.ts';

export interface BatchTarget {
  readonly projector: Projector;
  /** The checkpoint row this copy advances (the live name, or a rebuild's scratch name). */
  readonly checkpointName: string;
  readonly tables: TableNames;
  /** False for a rebuild copy: its rows are not live yet, so clients have nothing to refetch. */
  readonly announce?: boolean;
}

/**
 * Reads the next batch after the target's checkpoint and applies it together with the new checkpoint in one
 * transaction. The checkpoint row is locked and re-checked inside the transaction, so two runners (two API
 * instances, or a runner and a rebuild swap) never apply the same batch twice: the loser sees a moved
 * checkpoint and applies nothing. Returns the number of events applied.
 */
export async function applyNextBatch(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  target: BatchTarget,
  options: { batchSize: number; now: () => Date },
): Promise<number> {
  // Read outside the transaction: on PGlite (one session) a read through another connection would wait for it.
  const before = await readCheckpoint(db, target.checkpointName);
  if (!before) throw new Error(`Projection checkpoint ${target.checkpointName} is missing`);
  const events = await store.readAll({ after: before.position, maxCount: options.batchSize });
  if (events.length === 0) return 0;
  return db.transaction().execute(async (tx) => {
    const locked = await readCheckpoint(tx, target.checkpointName, { lock: true });
    if (!locked || !samePosition(locked.position, before.position)) return 0;
    const announcements = new ChangeAnnouncements();
    await target.projector.apply(events, {
      tx,
      tables: target.tables,
      announce: target.announce === false ? () => {} : (userId, topic) => announcements.add(userId, topic),
    });
    await writeCheckpoint(tx, advance(locked, events, options.now()));
    await announcements.notify(tx);
    return events.length;
  });
}

/**
 * Applies every remaining event inside a transaction the caller holds (a rebuild's final catch-up under the
 * live checkpoint's lock). Returns the advanced checkpoint.
 */
export async function catchUpInTransaction(
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
  projector: Projector,
  tables: TableNames,
  from: Checkpoint,
  options: { batchSize: number; now: () => Date },
): Promise<Checkpoint> {
  let checkpoint = from;
  for (;;) {
    const events = await store.readAll({ after: checkpoint.position, maxCount: options.batchSize, transaction: tx });
    if (events.length === 0) return checkpoint;
    await projector.apply(events, { tx, tables, announce: () => {} });
    checkpoint = advance(checkpoint, events, options.now());
  }
}

function advance(checkpoint: Checkpoint, events: readonly { position: LogPosition; globalPosition: number }[], now: Date) {
  const last = events[events.length - 1]!;
  return {
    ...checkpoint,
    position: last.position,
    globalPosition: last.globalPosition,
    eventsApplied: checkpoint.eventsApplied + events.length,
    updatedAt: now,
  };
}

function samePosition(a: LogPosition | null, b: LogPosition | null): boolean {
  if (a === null || b === null) return a === b;
  return comparePositions(a, b) === 0;
}
