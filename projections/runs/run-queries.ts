import { type Kysely, sql } from 'kysely';
import type { RunsTable } from './run-table.ts';

type Db = Kysely<{ runs: RunsTable }>;

/** A row of the runs read model (it keeps no track: see run-track.ts of the HTTP routes). */
export type RunListRow = RunsTable;

const listColumns = [
  'id',
  'user_id',
  'source',
  'import_id',
  'started_at',
  'ended_at',
  'distance_km',
  'duration_sec',
  'notes',
  'verdict',
  'verification',
  'recorded_at',
] as const;

/** Where a page ends: the last row's start and id, the stable order of the list. */
export interface RunCursor {
  readonly startedAt: string;
  readonly id: string;
}

/** Opaque cursor text for a position in the list. */
export function encodeRunCursor(cursor: RunCursor): string {
  return Buffer.from(JSON.stringify([cursor.startedAt, cursor.id])).toString('base64url');
}

/** The cursor, or null when the text is not one of ours. */
export function decodeRunCursor(text: string): RunCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [startedAt, id] = value;
    if (typeof startedAt !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(startedAt))) return null;
    return { startedAt, id };
  } catch {
    return null;
  }
}

/** The user's runs, newest first, `limit` after `cursor`, optionally only those started since `since`. */
export async function listRuns(
  db: Kysely<object>,
  userId: string,
  options: { limit: number; cursor: RunCursor | null; since: string | null },
): Promise<{ runs: RunListRow[]; next: RunCursor | null }> {
  let query = (db as Db).selectFrom('runs').select(listColumns).where('user_id', '=', userId);
  if (options.since) query = query.where('started_at', '>=', new Date(options.since));
  if (options.cursor) {
    const { startedAt, id } = options.cursor;
    query = query.where(sql<boolean>`(started_at, id) < (${startedAt}::timestamptz, ${id})`);
  }
  const rows = await query
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1)
    .execute();
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  const next = rows.length > options.limit && last ? { startedAt: last.started_at.toISOString(), id: last.id } : null;
  return { runs: page, next };
}

/** The user's runs that started in [from, to), oldest first (a goal's week). */
export async function runsBetween(db: Kysely<object>, userId: string, from: Date, to: Date): Promise<RunListRow[]> {
  return (db as Db)
    .selectFrom('runs')
    .select(listColumns)
    .where('user_id', '=', userId)
    .where('started_at', '>=', from)
    .where('started_at', '<', to)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
}

/** One of the user's runs, or null. */
export async function findOwnRun(db: Kysely<object>, userId: string, runId: string): Promise<RunListRow | null> {
  const row = await (db as Db)
    .selectFrom('runs')
    .select(listColumns)
    .where('id', '=', runId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The user's runs whose claimed time overlaps [fromMs, toMs] or whose track key is one of `trackKeys`: the neighbours
 * count-once needs to judge a page of runs (domain/run/count-once.ts).
 */
export async function runNeighbours(
  db: Kysely<object>,
  userId: string,
  span: { readonly fromMs: number; readonly toMs: number; readonly trackKeys: readonly string[] },
): Promise<RunListRow[]> {
  return (db as Db)
    .selectFrom('runs')
    .select(listColumns)
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb.and([eb('started_at', '<=', new Date(span.toMs)), eb('ended_at', '>=', new Date(span.fromMs))]),
        ...(span.trackKeys.length > 0 ? [eb(sql<string>`verification->>'trackKey'`, 'in', [...span.trackKeys])] : []),
      ]),
    )
    .execute();
}
