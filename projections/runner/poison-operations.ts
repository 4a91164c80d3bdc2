import type { Kysely, Transaction } from 'kysely';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { ChangeAnnouncements } from './change-announcements.ts';
import { readCheckpoint } from './checkpoints.ts';
import { type PoisonedEvent, findPoisonedEvent, noteFailedAttempt, resolvePoisonedEvent } from './poisoned-events.ts';
import { type Projector, liveTableNames } from './projector.ts';
import { describeError } from './step-past-faults.ts';
import { isTransientDatabaseError } from './transient-error.ts';

/** What an operator's replay of a poisoned event did. */
export type ReplayResult =
  | { readonly kind: 'replayed'; readonly poisoned: PoisonedEvent }
  | { readonly kind: 'still_failing'; readonly poisoned: PoisonedEvent; readonly error: string }
  | { readonly kind: 'already_replayed'; readonly poisoned: PoisonedEvent }
  | { readonly kind: 'not_found' };

/** Marks an open poisoned event skipped: the operator accepts that the read model lacks it. False if unknown. */
export async function skipPoisonedEvent(db: Kysely<object>, id: number, now: Date): Promise<boolean> {
  const poisoned = await findPoisonedEvent(db, id);
  if (!poisoned) return false;
  if (poisoned.status === 'poisoned') await resolvePoisonedEvent(db, id, 'skipped', now);
  return true;
}

/**
 * Applies a poisoned (or skipped) event through its projector, after the projector (or the data) was fixed.
 * Everything happens in one transaction that holds the projection's checkpoint lock, so no batch of the live runner
 * or a rebuild swap interleaves: the event's rows, the change announcement and the `replayed` mark commit together.
 * The event is applied on top of the current read model, out of its original order; where later events of the same
 * stream depend on it, `projections:rebuild` (which applies every event in order) is the better repair.
 */
export async function replayPoisonedEvent(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  projectors: ReadonlyMap<string, Projector>,
  id: number,
  now: Date,
): Promise<ReplayResult> {
  const poisoned = await findPoisonedEvent(db, id);
  if (!poisoned) return { kind: 'not_found' };
  if (poisoned.status === 'replayed') return { kind: 'already_replayed', poisoned };
  const projector = projectors.get(poisoned.projection);
  if (!projector) throw new Error(`Poisoned event ${id} belongs to unknown projection ${poisoned.projection}`);
  // Through the store, so the event reads exactly as the runner read it (upcast, personal data decrypted).
  const stream = await store.readStream(poisoned.streamId);
  const event = stream.find((e) => e.metadata.eventId === poisoned.eventId);
  if (!event) throw new Error(`Event ${poisoned.eventId} is no longer in stream ${poisoned.streamId}`);
  try {
    await db.transaction().execute(async (tx) => {
      await readCheckpoint(tx, projector.name, { lock: true });
      const announcements = new ChangeAnnouncements();
      await projector.apply([event], {
        tx,
        tables: liveTableNames(projector),
        announce: (userId, topic) => announcements.add(userId, topic),
      });
      await resolvePoisonedEvent(tx, id, 'replayed', now);
      await announcements.notify(tx);
    });
  } catch (error) {
    if (isTransientDatabaseError(error)) throw error;
    const message = describeError(error);
    await noteFailedAttempt(db, id, message, now);
    return { kind: 'still_failing', poisoned, error: message };
  }
  return { kind: 'replayed', poisoned: (await findPoisonedEvent(db, id)) ?? poisoned };
}
