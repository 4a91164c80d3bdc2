import { type Kysely, sql } from 'kysely';
import type { StreamAppend, StreamAppendResult } from '../../../../domain/shared/event-store.ts';
import { translateError } from './append-events.ts';

interface AppendManyRow {
  stream_id: string;
  next_revision: number;
  commit_position: number;
  global_position: number;
}

/**
 * Appends to many streams in ONE statement (es_append_many: append-many-function.ts): every stream gets es_append's
 * guarantees — its lock, its expected-version check, its answer to a repeat, the log kept in revision order — and
 * the statement is atomic: one refusal and nothing is written. The streams go in stream-id order, so two batches
 * over the same streams queue instead of deadlocking. Each stream must come once and with events (an empty append
 * would only be a version check, which es_append does not do for an empty array).
 */
export async function appendManyEvents(
  db: Kysely<object>,
  appends: readonly StreamAppend[],
  notifyChannel: string | null,
): Promise<StreamAppendResult[]> {
  const seen = new Set<string>();
  for (const a of appends) {
    if (seen.has(a.streamId)) throw new Error(`appendToStreams: stream ${a.streamId} appears twice`);
    seen.add(a.streamId);
    if (a.events.length === 0) throw new Error(`appendToStreams: nothing to append to ${a.streamId}`);
  }
  if (appends.length === 0) return [];
  const ordered = [...appends].sort((x, y) => (x.streamId < y.streamId ? -1 : x.streamId > y.streamId ? 1 : 0));
  const payload = JSON.stringify(
    ordered.map((a) => ({
      s: a.streamId,
      x: String(a.expectedVersion ?? 'any'),
      e: a.events.map((event) => ({
        id: event.metadata.eventId,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
      })),
    })),
  );
  try {
    const { rows } = await sql<AppendManyRow>`
      select stream_id, next_revision, commit_position, global_position
      from es_append_many(${payload}::jsonb, ${notifyChannel})`.execute(db);
    const byStream = new Map(rows.map((row) => [row.stream_id, row]));
    return appends.map((a) => {
      const row = byStream.get(a.streamId)!;
      return {
        streamId: a.streamId,
        nextExpectedRevision: Number(row.next_revision),
        position: { commit: Number(row.commit_position), prepare: Number(row.global_position) },
        globalPosition: Number(row.global_position),
      };
    });
  } catch (error) {
    throw translateManyError(error, ordered);
  }
}

/** es_append names the stream in its message; the error is given that stream's caller and expectation. */
function translateManyError(error: unknown, appends: readonly StreamAppend[]): unknown {
  const message = String((error as { message?: unknown }).message ?? '');
  const failed = appends.find((a) => message.startsWith(`es_append: stream ${a.streamId} `)) ?? appends[0]!;
  return translateError(error, failed.streamId, failed.expectedVersion ?? 'any');
}
