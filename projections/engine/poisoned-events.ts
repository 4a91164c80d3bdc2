import { type Kysely, sql, type Transaction } from 'kysely';
import type { EventStore, LogPosition, RecordedEvent } from '../../domain/shared/event-store.ts';
import { ChangeAnnouncements } from '../change-announcements.ts';
import { type AnyDb, readCheckpoint } from './checkpoints.ts';
import { describeError } from './engine.ts';
import { liveTableNames, type Projector } from './projector.ts';
import { isTransientDatabaseError } from '../transient-error.ts';

/**
 * Events a projector kept refusing, recorded so the projection could move past them. `poisoned` is open (the read
 * model lacks the event: /health and projections:status say so); an operator `skipped` it (accepts the gap), or it
 * was `replayed` (applied after a fix, by the operator command or by a rebuild).
 */
export type PoisonStatus = 'poisoned' | 'skipped' | 'replayed';

/** What the engine knows when it gives up on an event. */
export interface PoisonReport {
  readonly projection: string;
  readonly event: RecordedEvent;
  /** The projector's last error message. */
  readonly error: string;
  /** Failed attempts to apply it (as recorded: over every run that met it, live follow and rebuilds). */
  readonly attempts: number;
  readonly firstSeenAt: Date;
  readonly lastSeenAt: Date;
}

/** A recorded poisoned event: the report, with the event by reference, and what became of it. */
export interface PoisonedEvent extends Omit<PoisonReport, 'event'> {
  readonly id: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly streamId: string;
  readonly position: LogPosition;
  readonly globalPosition: number;
  readonly status: PoisonStatus;
  readonly resolvedAt: Date | null;
}

/** What an operator's replay of a poisoned event did. */
export type ReplayResult =
  | { readonly kind: 'replayed'; readonly poisoned: PoisonedEvent }
  | { readonly kind: 'still_failing'; readonly poisoned: PoisonedEvent; readonly error: string }
  | { readonly kind: 'already_replayed'; readonly poisoned: PoisonedEvent }
  | { readonly kind: 'not_found' };

// Error texts can be long (a whole SQL statement); the operator needs the gist, the logs keep the rest.
const MAX_ERROR_LENGTH = 2000;

const columns = sql`id, projection, event_id AS "eventId", event_type AS "eventType", stream_id AS "streamId",
  json_build_object('commit', commit_position, 'prepare', prepare_position) AS position,
  global_position AS "globalPosition", error, attempts, first_seen_at AS "firstSeenAt",
  last_seen_at AS "lastSeenAt", status, resolved_at AS "resolvedAt"`;

/**
 * Records (or re-records) an event as poisoned for a projection. Meeting it again adds the attempts and refreshes
 * the error; an event the operator skipped stays skipped (a rebuild must not undo that decision), and a replayed one
 * that fails again is open again (the fix did not hold).
 */
export async function recordPoisonedEvent(db: AnyDb, report: PoisonReport): Promise<void> {
  const { event } = report;
  await sql`INSERT INTO projection_poisoned_events (projection, event_id, event_type, stream_id, commit_position,
      prepare_position, global_position, error, attempts, first_seen_at, last_seen_at, status)
    VALUES (${report.projection}, ${event.metadata.eventId}, ${event.type}, ${event.streamId}, ${event.position.commit},
      ${event.position.prepare}, ${event.globalPosition}, ${report.error.slice(0, MAX_ERROR_LENGTH)},
      ${report.attempts}, ${report.firstSeenAt}, ${report.lastSeenAt}, 'poisoned')
    ON CONFLICT (projection, event_id) DO UPDATE SET error = excluded.error, last_seen_at = excluded.last_seen_at,
      attempts = projection_poisoned_events.attempts + excluded.attempts,
      status = CASE WHEN projection_poisoned_events.status = 'skipped' THEN 'skipped' ELSE 'poisoned' END,
      resolved_at = CASE WHEN projection_poisoned_events.status = 'skipped'
        THEN projection_poisoned_events.resolved_at END`.execute(db);
}

/** Poisoned events, oldest first; by default every status. */
export async function listPoisonedEvents(
  db: AnyDb,
  filter: { status?: readonly PoisonStatus[]; projection?: string; id?: number } = {},
): Promise<PoisonedEvent[]> {
  const { rows } = await sql<PoisonedEvent>`SELECT ${columns} FROM projection_poisoned_events
    WHERE (${filter.status ?? null}::text[] IS NULL OR status = ANY(${filter.status ?? null}::text[]))
      AND (${filter.projection ?? null}::text IS NULL OR projection = ${filter.projection ?? null})
      AND (${filter.id ?? null}::bigint IS NULL OR id = ${filter.id ?? null})
    ORDER BY id`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id), globalPosition: Number(row.globalPosition) }));
}

/** Marks an event handled: skipped by an operator, or replayed (applied after all). */
export async function resolvePoisonedEvent(db: AnyDb, id: number, status: 'skipped' | 'replayed', now: Date) {
  const set = sql`status = ${status}, resolved_at = ${now}`;
  await sql`UPDATE projection_poisoned_events SET ${set} WHERE id = ${id}`.execute(db);
}

/**
 * Applies a poisoned (or skipped) event through its fixed projector, in one transaction holding the projection's
 * checkpoint lock (no live batch or rebuild swap interleaves): its rows, announcement and `replayed` mark commit
 * together. It lands on top of the current read model, out of order; where later events of its stream depend on it,
 * `projections:rebuild` (every event in order) is the better repair.
 */
export async function replayPoisonedEvent(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  projectors: ReadonlyMap<string, Projector>,
  id: number,
  now: Date,
): Promise<ReplayResult> {
  const [poisoned] = await listPoisonedEvents(db, { id });
  if (!poisoned) return { kind: 'not_found' };
  if (poisoned.status === 'replayed') return { kind: 'already_replayed', poisoned };
  const projector = projectors.get(poisoned.projection);
  if (!projector) throw new Error(`Poisoned event ${id} belongs to unknown projection ${poisoned.projection}`);
  // Through the store, so the event reads exactly as the engine read it (upcast, personal data decrypted).
  const event = (await store.readStream(poisoned.streamId)).find((e) => e.metadata.eventId === poisoned.eventId);
  if (!event) throw new Error(`Event ${poisoned.eventId} is no longer in stream ${poisoned.streamId}`);
  try {
    await db.transaction().execute(async (tx) => {
      await readCheckpoint(tx, projector.name, { lock: true });
      const announcements = new ChangeAnnouncements();
      const announce = announcements.add.bind(announcements);
      await projector.apply([event], { tx, tables: liveTableNames(projector), announce });
      await resolvePoisonedEvent(tx, id, 'replayed', now);
      await announcements.notify(tx);
    });
  } catch (error) {
    if (isTransientDatabaseError(error)) throw error;
    const report = { projection: poisoned.projection, event, error: describeError(error), attempts: 1 };
    await recordPoisonedEvent(db, { ...report, firstSeenAt: now, lastSeenAt: now });
    return { kind: 'still_failing', poisoned, error: report.error.slice(0, MAX_ERROR_LENGTH) };
  }
  const [replayed] = await listPoisonedEvents(db, { id });
  return { kind: 'replayed', poisoned: replayed ?? poisoned };
}
