import { type Kysely, sql } from 'kysely';
import { sqlRecords } from '../sql-records.ts';
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

/** Where findOwnRunsWithNeighbours answers a run asked for by `userId`: a run is found only under its owner. */
export const ownRunKey = (userId: string, runId: string) => `${userId}\u0000${runId}`;

/** A run asked for by its owner, and the neighbours count-once judges it with (itself among them). */
export interface RunWithNeighbours {
  readonly run: RunListRow;
  readonly neighbours: readonly RunListRow[];
}

/**
 * findOwnRun and runNeighbours for several asked runs (several users') in ONE statement: the answers of the runs a
 * group commit saved (app-server/http/routes/saved-runs.ts). Each asked run (by id and owner: another user's id finds
 * nothing; answered under ownRunKey) with the runs of its owner that overlap its claimed time or repeat its track key, as runNeighbours reads
 * them for a page of one. Each neighbour scan is a LATERAL subquery behind OFFSET 0, so it runs per asked run on the
 * (user_id, started_at) index rather than as a join PostgreSQL plans for a hundred guessed rows (runs-around-week.ts).
 */
export async function findOwnRunsWithNeighbours(
  db: Kysely<object>,
  asked: readonly { readonly userId: string; readonly runId: string }[],
): Promise<Map<string, RunWithNeighbours>> {
  if (asked.length === 0) return new Map();
  const records = asked.map((a) => ({ user_id: a.userId, run_id: a.runId }));
  const { rows } = await sql<RunListRow & { asked_id: string }>`
    WITH asked AS (
      SELECT r.id, r.user_id, r.started_at, r.ended_at,
        CASE WHEN r.verification->>'policyVersion' = '2' THEN r.verification->>'trackKey' END AS track_key
      FROM ${sqlRecords(records, 'user_id text, run_id text')} AS a
      JOIN runs r ON r.id = a.run_id AND r.user_id = a.user_id
    )
    SELECT asked.id AS asked_id, n.id, n.user_id, n.source, n.import_id, n.started_at, n.ended_at, n.distance_km,
      n.duration_sec, n.notes, n.verdict, n.verification, n.recorded_at
    FROM asked CROSS JOIN LATERAL (
      SELECT * FROM runs n
      WHERE n.user_id = asked.user_id
        AND ((n.started_at <= asked.ended_at AND n.ended_at >= asked.started_at)
          OR (asked.track_key IS NOT NULL AND n.verification->>'trackKey' = asked.track_key))
      OFFSET 0
    ) n`.execute(db);
  const found = new Map<string, { run: RunListRow | null; neighbours: RunListRow[] }>();
  for (const { asked_id, ...row } of rows) {
    // A neighbour is a run of the asked run's owner (the LATERAL scan's user_id), so row.user_id is that owner.
    const key = ownRunKey(row.user_id, asked_id);
    const entry = found.get(key) ?? { run: null, neighbours: [] };
    entry.neighbours.push(row);
    if (row.id === asked_id) entry.run = row;
    found.set(key, entry);
  }
  return new Map([...found].flatMap(([id, { run, neighbours }]) => (run ? [[id, { run, neighbours }] as const] : [])));
}
