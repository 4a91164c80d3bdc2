import type { Kysely, Transaction } from 'kysely';
import {
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
} from '../../domain/shared/event-store.ts';
import { ChangeAnnouncements } from '../change-announcements.ts';
import { type Checkpoint, newCheckpoint, readCheckpoints, writeCheckpoints } from './checkpoints.ts';
import type { FaultTracker } from './fault-tracker.ts';
import type { PoisonReport } from './poisoned-events.ts';
import { handles, type Processor, typesToRead } from './processor.ts';

/** A processor as the engine follows it: where its checkpoint was left, and how its faults are going. */
export interface Member {
  readonly processor: Processor;
  /**
   * Where this engine left its checkpoint (undefined: read it), so an idle wake-up costs one look at the head, not a
   * read of every checkpoint. Never ahead of the stored one; a stale one is caught under the lock.
   */
  position?: LogPosition | null;
  readonly tracker: FaultTracker;
  /** Stepped on its own while a refused batch is narrowed down, retried or passed. */
  alone: boolean;
  /** performance.now() before which a member stepping alone is not retried. */
  retryAt: number;
  /** The event to pass as poisoned on its next step (its failure policy gave up on it). */
  pass?: Omit<PoisonReport, 'projection' | 'event' | 'lastSeenAt'> & { readonly eventId: string };
}

/** A step failed: what went wrong, and the events it was given (empty: it failed before reading any). */
export class StepFailure extends Error {
  readonly error: unknown = this.cause;
  readonly events: readonly RecordedEvent[];

  constructor(error: unknown, events: readonly RecordedEvent[]) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
    this.events = events;
  }
}

/**
 * The one way the engine moves processors along the log. One read after the furthest-behind member (only the types
 * they handle, without the fields they all leave out), then one transaction that locks their checkpoints, hands each
 * member the events past its own that it handles, and stores the checkpoints: a batch and its checkpoint commit
 * together, so each is applied exactly once, whichever engine instance gets there first (one whose locked checkpoint
 * lies outside what was read gets nothing now). A short read had every event of those types up to the head that same
 * read saw, so the checkpoints move to that head (a processor with few types is never left behind). Returns whether
 * anything moved ('full': a whole batch, more may wait); throws a StepFailure (every position forgotten).
 */
export async function step(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  members: readonly Member[],
  options: { readonly batchSize: number; readonly now: () => Date },
): Promise<boolean | 'full'> {
  let events: RecordedEvent[] = [];
  try {
    const names = members.map((m) => m.processor.name);
    if (members.some((m) => m.position === undefined)) {
      // A processor new to this database starts at the beginning of the log.
      const fresh = members.map(({ processor: p }) => newCheckpoint(p.name, p.version, options.now()));
      await writeCheckpoints(db, fresh, { onlyNew: true });
      const stored = await readCheckpoints(db, names);
      for (const member of members) member.position = required(stored, member).position;
    }
    const after = earliest(members.map((m) => m.position ?? null));
    const passing = members.length === 1 ? members[0]!.pass : undefined;
    const maxCount = passing ? 1 : options.batchSize;
    const eventTypes = typesToRead(members.map((m) => m.processor.eventTypes));
    const { withoutFields } = members[0]!.processor;
    const { head, events: read } = await store.readAllToHead({ after, maxCount, withoutFields, eventTypes });
    if (head === null || members.every((m) => !isBefore(m.position ?? null, head))) return false;
    events = read;
    const last = events.at(-1)?.position ?? null;
    const reached = events.length === maxCount ? last! : isBefore(last, head) ? head : last!;
    const moved = await db.transaction().execute(async (tx) => {
      const stored = await readCheckpoints(tx, names, { lock: true });
      const announcements = new ChangeAnnouncements();
      const announce = announcements.add.bind(announcements);
      const moved: Checkpoint[] = [];
      for (const member of members) {
        const at = required(stored, member);
        member.position = at.position;
        if (isBefore(at.position, after) || !isBefore(at.position, reached)) continue;
        const own = events.filter((e) => isBefore(at.position, e.position) && handles(member.processor, e.type));
        if (passing) {
          const event = own[0];
          if (event?.metadata.eventId !== passing.eventId) continue;
          const report = { ...passing, projection: member.processor.name, event, lastSeenAt: options.now() };
          await member.processor.passPoisoned?.(report, tx);
          moved.push(advance(at, 0, event.position, report.lastSeenAt));
          continue;
        }
        if (own.length > 0) await member.processor.handle(own, { tx, announce });
        moved.push(advance(at, own.length, reached, options.now()));
      }
      await writeCheckpoints(tx, moved);
      await announcements.notify(tx);
      return moved;
    });
    for (const { name, position } of moved) members.find((m) => m.processor.name === name)!.position = position;
    return events.length === maxCount ? 'full' : moved.length > 0 || events.length > 0;
  } catch (error) {
    for (const member of members) member.position = undefined;
    throw new StepFailure(error, events);
  }
}

function required(stored: ReadonlyMap<string, Checkpoint>, member: Member): Checkpoint {
  const checkpoint = stored.get(member.processor.name);
  if (!checkpoint) throw new Error(`Checkpoint ${member.processor.name} is missing`);
  return checkpoint;
}

/** The checkpoint moved to `position`, `applied` more events applied. */
export function advance(checkpoint: Checkpoint, applied: number, position: LogPosition, now: Date): Checkpoint {
  return {
    ...checkpoint,
    position,
    globalPosition: position.prepare,
    eventsApplied: checkpoint.eventsApplied + applied,
    updatedAt: now,
  };
}

/** Whether `a` comes before `b` (null: the start of the log). */
export function isBefore(a: LogPosition | null, b: LogPosition | null): boolean {
  if (b === null) return false;
  return a === null || comparePositions(a, b) < 0;
}

/** The earliest of some positions (null: the start of the log). */
export function earliest(positions: readonly (LogPosition | null)[]): LogPosition | null {
  return positions.reduce((first, position) => (isBefore(position, first) ? position : first));
}
