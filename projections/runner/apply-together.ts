import type { Kysely, Transaction } from 'kysely';
import {
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
} from '../../domain/shared/event-store.ts';
import { advance, type BatchTarget, samePosition } from './apply-batch.ts';
import { ChangeAnnouncements } from './change-announcements.ts';
import { type Checkpoint, lockCheckpoints, readAllCheckpoints, writeCheckpoints } from './checkpoints.ts';
import type { CheckpointCursor } from './step-past-faults.ts';

/** A live projection followed together with others: its target and where its checkpoint was left. */
export interface TogetherMember {
  readonly target: BatchTarget;
  readonly cursor: CheckpointCursor;
}

/** What one step of a group did: per member that applied, the events it applied. */
export interface TogetherStep<Member extends TogetherMember = TogetherMember> {
  readonly read: number;
  readonly applied: ReadonlyMap<Member, readonly RecordedEvent[]>;
}

/**
 * One step of several projections over the log at once: one read of the log after the furthest-behind member, then
 * one transaction that locks every member's checkpoint (one statement), applies each member the events past its own
 * checkpoint, and stores the new checkpoints (one statement). Following nine read models one by one cost each
 * append nine reads, nine transactions and eighteen checkpoint statements; together it costs one of each.
 *
 * Exactly-once holds as for one projection (apply-batch.ts): a member whose locked checkpoint is not where its
 * cursor says (another runner moved it) applies nothing and forgets its cursor. The members must leave out the same
 * fields of the log (they share one read). Throws whatever a projector or the database throws; the transaction is
 * then rolled back whole and every cursor forgotten, and the caller steps the members one by one, where a refusal
 * is narrowed down to one projection and one event (step-past-faults.ts).
 */
export async function stepTogether<Member extends TogetherMember>(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  members: readonly Member[],
  options: { readonly batchSize: number; readonly now: () => Date; readonly withoutFields: readonly string[] },
): Promise<TogetherStep<Member>> {
  try {
    await fillUnknownCursors(db, members);
    const after = furthestBehind(members);
    const events = await store.readAll({ after, maxCount: options.batchSize, withoutFields: options.withoutFields });
    if (events.length === 0) return { read: 0, applied: new Map() };
    const applied = await applyTogether(db, members, events, options.now());
    for (const [member, own] of applied) member.cursor.position = own.at(-1)!.position;
    return { read: events.length, applied };
  } catch (error) {
    for (const member of members) member.cursor.position = undefined;
    throw error;
  }
}

async function applyTogether<Member extends TogetherMember>(
  db: Kysely<object>,
  members: readonly Member[],
  events: readonly RecordedEvent[],
  now: Date,
): Promise<Map<Member, readonly RecordedEvent[]>> {
  const applied = new Map<Member, readonly RecordedEvent[]>();
  await db.transaction().execute(async (tx) => {
    const locked = await lockCheckpoints(
      tx,
      members.map((m) => m.target.checkpointName),
    );
    const announcements = new ChangeAnnouncements();
    const advanced: Checkpoint[] = [];
    for (const member of members) {
      const checkpoint = locked.get(member.target.checkpointName);
      if (!checkpoint || !samePosition(checkpoint.position, member.cursor.position ?? null)) {
        member.cursor.position = undefined;
        continue;
      }
      const own = eventsAfter(events, checkpoint.position);
      if (own.length === 0) continue;
      await member.target.projector.apply(own, {
        tx,
        tables: member.target.tables,
        announce: (userId, topic) => announcements.add(userId, topic),
      });
      advanced.push(advance(checkpoint, own, now));
      applied.set(member, own);
    }
    await writeCheckpoints(tx, advanced);
    await announcements.notify(tx);
  });
  return applied;
}

/** Members whose checkpoint position is not known get it from one read of every checkpoint. */
async function fillUnknownCursors(db: Kysely<object>, members: readonly TogetherMember[]): Promise<void> {
  if (members.every((m) => m.cursor.position !== undefined)) return;
  const stored = new Map((await readAllCheckpoints(db)).map((c) => [c.name, c]));
  for (const member of members) {
    if (member.cursor.position !== undefined) continue;
    const checkpoint = stored.get(member.target.checkpointName);
    if (!checkpoint) throw new Error(`Projection checkpoint ${member.target.checkpointName} is missing`);
    member.cursor.position = checkpoint.position;
  }
}

/** The earliest known position of the group (null: one has applied nothing yet). */
function furthestBehind(members: readonly TogetherMember[]): LogPosition | null {
  return earliestPosition(members.map(({ cursor }) => cursor.position ?? null));
}

/** The earliest of some positions (null: the start of the log). */
export function earliestPosition(positions: readonly (LogPosition | null)[]): LogPosition | null {
  let earliest: LogPosition | null | undefined;
  for (const position of positions) {
    if (position === null) return null;
    if (earliest === undefined || earliest === null || comparePositions(position, earliest) < 0) earliest = position;
  }
  return earliest ?? null;
}

/** The events of a batch (in log order) that come after `position`. */
export function eventsAfter(events: readonly RecordedEvent[], position: LogPosition | null): readonly RecordedEvent[] {
  if (position === null) return events;
  const first = events.findIndex((e) => comparePositions(e.position, position) > 0);
  return first === -1 ? [] : first === 0 ? events : events.slice(first);
}
