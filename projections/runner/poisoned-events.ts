import { type Generated, type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { LogPosition, RecordedEvent } from '../../domain/shared/event-store.ts';

/**
 * Events a projector kept refusing, recorded so the projection could move past them instead of stopping the world.
 * `poisoned` is open (the read model lacks the event: /health and projections:status say so); an operator then
 * `skipped` it (accepts the gap) or it was `replayed` (applied after a fix, by the operator command or by a rebuild).
 */
export type PoisonStatus = 'poisoned' | 'skipped' | 'replayed';

export interface PoisonedEvent {
  readonly id: number;
  readonly projection: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly streamId: string;
  readonly position: LogPosition;
  readonly globalPosition: number;
  /** The projector's last error message. */
  readonly error: string;
  /** Failed attempts to apply it, over every run that met it (live follow and rebuilds). */
  readonly attempts: number;
  readonly firstSeenAt: Date;
  readonly lastSeenAt: Date;
  readonly status: PoisonStatus;
  readonly resolvedAt: Date | null;
}

/** What a runner knows when it gives up on an event. */
export interface PoisonReport {
  readonly projection: string;
  readonly event: RecordedEvent;
  readonly error: string;
  readonly attempts: number;
  readonly firstSeenAt: Date;
  readonly lastSeenAt: Date;
}

type PoisonTable = {
  projection_poisoned_events: {
    id: Generated<number>;
    projection: string;
    event_id: string;
    event_type: string;
    stream_id: string;
    commit_position: number;
    prepare_position: number;
    global_position: number;
    error: string;
    attempts: number;
    first_seen_at: Date;
    last_seen_at: Date;
    status: PoisonStatus;
    resolved_at: Date | null;
  };
};

type Row = Selectable<PoisonTable['projection_poisoned_events']>;
type AnyDb = Kysely<object> | Transaction<object>;

// Error texts can be long (a whole SQL statement); the operator needs the gist, the logs keep the rest.
const MAX_ERROR_LENGTH = 2000;

/**
 * Records (or re-records) an event as poisoned for a projection. Meeting it again adds the attempts and refreshes
 * the error; an event the operator skipped stays skipped (a rebuild must not undo that decision), and a replayed one
 * that fails again is open again (the fix did not hold).
 */
export async function recordPoisonedEvent(db: AnyDb, report: PoisonReport): Promise<void> {
  const { event } = report;
  const error = report.error.slice(0, MAX_ERROR_LENGTH);
  await db
    .withTables<PoisonTable>()
    .insertInto('projection_poisoned_events')
    .values({
      projection: report.projection,
      event_id: event.metadata.eventId,
      event_type: event.type,
      stream_id: event.streamId,
      commit_position: event.position.commit,
      prepare_position: event.position.prepare,
      global_position: event.globalPosition,
      error,
      attempts: report.attempts,
      first_seen_at: report.firstSeenAt,
      last_seen_at: report.lastSeenAt,
      status: 'poisoned',
      resolved_at: null,
    })
    .onConflict((oc) =>
      oc.columns(['projection', 'event_id']).doUpdateSet({
        error,
        attempts: sql`projection_poisoned_events.attempts + ${report.attempts}`,
        last_seen_at: report.lastSeenAt,
        status: sql`CASE WHEN projection_poisoned_events.status = 'skipped' THEN 'skipped' ELSE 'poisoned' END`,
        resolved_at: sql`CASE WHEN projection_poisoned_events.status = 'skipped' THEN projection_poisoned_events.resolved_at END`,
      }),
    )
    .execute();
}

/** Poisoned events, oldest first; by default every status. */
export async function listPoisonedEvents(
  db: AnyDb,
  filter: { status?: readonly PoisonStatus[]; projection?: string } = {},
): Promise<PoisonedEvent[]> {
  let query = db.withTables<PoisonTable>().selectFrom('projection_poisoned_events').selectAll();
  if (filter.status) query = query.where('status', 'in', [...filter.status]);
  if (filter.projection) query = query.where('projection', '=', filter.projection);
  const rows = await query.orderBy('id').execute();
  return rows.map(toPoisonedEvent);
}

/** One poisoned event by its id, or null. */
export async function findPoisonedEvent(db: AnyDb, id: number): Promise<PoisonedEvent | null> {
  const row = await db
    .withTables<PoisonTable>()
    .selectFrom('projection_poisoned_events')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toPoisonedEvent(row) : null;
}

/** Marks an event handled: skipped by an operator, or replayed (applied after all). */
export async function resolvePoisonedEvent(
  db: AnyDb,
  id: number,
  status: Exclude<PoisonStatus, 'poisoned'>,
  now: Date,
): Promise<void> {
  await db
    .withTables<PoisonTable>()
    .updateTable('projection_poisoned_events')
    .set({ status, resolved_at: now })
    .where('id', '=', id)
    .execute();
}

/** Notes another failed attempt (a replay that still fails) without changing the status. */
export async function noteFailedAttempt(db: AnyDb, id: number, error: string, now: Date): Promise<void> {
  await db
    .withTables<PoisonTable>()
    .updateTable('projection_poisoned_events')
    .set({ error: error.slice(0, MAX_ERROR_LENGTH), attempts: sql`attempts + 1`, last_seen_at: now })
    .where('id', '=', id)
    .execute();
}

function toPoisonedEvent(row: Row): PoisonedEvent {
  return {
    id: Number(row.id),
    projection: row.projection,
    eventId: row.event_id,
    eventType: row.event_type,
    streamId: row.stream_id,
    position: { commit: row.commit_position, prepare: row.prepare_position },
    globalPosition: row.global_position,
    error: row.error,
    attempts: row.attempts,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    status: row.status,
    resolvedAt: row.resolved_at,
  };
}
