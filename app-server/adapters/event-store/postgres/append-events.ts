import { type Kysely, sql } from 'kysely';
import {
  type AppendResult,
  type ExpectedVersion,
  type NewEvent,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from '../../../../domain/shared/event-store.ts';
import {
  DUPLICATE_EVENT_SQLSTATE,
  STREAM_ORDER_CONFLICT_SQLSTATE,
  WRONG_EXPECTED_VERSION_SQLSTATE,
} from './append-function.ts';

/** Some of the appended event ids exist already, but not as a repeat of this very append. */
export class DuplicateEventIdError extends Error {
  readonly streamId: string;
  constructor(streamId: string, cause: unknown) {
    super(`Stream ${streamId}: event ids of this append were appended before as a different append`, { cause });
    this.name = 'DuplicateEventIdError';
    this.streamId = streamId;
  }
}

interface AppendRow {
  next_revision: number;
  commit_position: number;
  global_position: number;
}

/** Appends through es_append in one round trip; `notifyChannel` null leaves the wake-up to the caller. */
export async function appendEvents(
  db: Kysely<object>,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
  notifyChannel: string | null,
): Promise<AppendResult> {
  if (events.length === 0) return checkEmptyAppend(db, streamId, expected);
  const payload = JSON.stringify(
    events.map((event) => ({
      id: event.metadata.eventId,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    })),
  );
  try {
    const { rows } = await sql<AppendRow>`
      select * from es_append(${streamId}, ${String(expected)}, ${payload}::jsonb, ${notifyChannel})`.execute(db);
    const row = rows[0]!;
    return {
      nextExpectedRevision: row.next_revision,
      position: { commit: row.commit_position, prepare: row.global_position },
      globalPosition: row.global_position,
    };
  } catch (error) {
    throw translateError(error, streamId, expected);
  }
}

/** The store's error for a failed append to `streamId` (also each stream of appendToStreams: append-many.ts). */
export function translateError(error: unknown, streamId: string, expected: ExpectedVersion): unknown {
  const { code, detail, constraint } = error as { code?: string; detail?: string; constraint?: string };
  if (code === WRONG_EXPECTED_VERSION_SQLSTATE)
    return new WrongExpectedVersionError(streamId, expected, Number(detail));
  if (code === DUPLICATE_EVENT_SQLSTATE) return new DuplicateEventIdError(streamId, error);
  if (code === STREAM_ORDER_CONFLICT_SQLSTATE && String((error as Error).message).startsWith('es_append:')) {
    return new StreamOrderConflictError(streamId, error);
  }
  // An id used in another stream (or repeated within the append) trips the unique index instead.
  if (code === '23505' && (constraint === undefined || constraint.includes('event_id'))) {
    return new DuplicateEventIdError(streamId, error);
  }
  return error;
}

/** Appending nothing still answers the version check, like KurrentDB does. */
async function checkEmptyAppend(
  db: Kysely<object>,
  streamId: string,
  expected: ExpectedVersion,
): Promise<AppendResult> {
  const { rows } = await sql<{ stream_revision: number; tx_id: number; global_position: number }>`
    select stream_revision, tx_id, global_position from es_events where stream_id = ${streamId}
    order by stream_revision desc limit 1`.execute(db);
  const last = rows[0];
  const actual = last ? last.stream_revision : -1;
  const holds =
    expected === 'any' ||
    (expected === 'stream_exists' && actual >= 0) ||
    (expected === 'no_stream' && actual < 0) ||
    expected === actual;
  if (!holds) throw new WrongExpectedVersionError(streamId, expected, actual);
  return {
    nextExpectedRevision: actual,
    position: { commit: last?.tx_id ?? 0, prepare: last?.global_position ?? 0 },
    globalPosition: last?.global_position ?? 0,
  };
}
