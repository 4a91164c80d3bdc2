import { sqlRecords } from '../sql-records.ts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { GoalRun } from '../../domain/goal/progress.ts';
import type { Verification } from '../../domain/run/verification.ts';

type Row = {
  run_id: string;
  user_id: string;
  started_at: Date | string;
  ended_at: Date | string | null;
  recorded_at: Date | string | null;
  verification: Verification;
};

const toGoalRun = (r: Row): GoalRun => {
  const startedAtMs = new Date(r.started_at).getTime();
  return {
    runId: r.run_id,
    userId: r.user_id,
    startedAtMs,
    endedAtMs: r.ended_at === null ? startedAtMs : new Date(r.ended_at).getTime(),
    recordedAtMs: r.recorded_at === null ? startedAtMs : new Date(r.recorded_at).getTime(),
    verification: r.verification,
  };
};

/** One week to gather runs for: the user's runs that started in [from, to), with their neighbours. */
export interface WeekOfRuns {
  /** Names the week in the answer (a goal id). */
  readonly key: string;
  readonly userId: string;
  readonly from: string;
  readonly to: string;
}

/**
 * From a table of run facts (one row per recorded, not deleted run: the goals read model's, the lifecycle
 * process's), the user's runs that started in [from, to) with their neighbours, as domain/goal/progress.ts needs them: runs whose
 * claimed time overlaps any of them (wherever those started) and runs repeating one of their recordings (same
 * track key, any week). Rows written before ended_at/recorded_at existed read as instants at their start.
 */
export async function runsAroundWeek(
  db: Kysely<object> | Transaction<object>,
  table: ReturnType<typeof sql.table>,
  userId: string,
  week: { readonly from: string; readonly to: string },
): Promise<GoalRun[]> {
  const runs = await runsAroundWeeks(db, table, [{ key: 'week', userId, ...week }]);
  return runs.get('week') ?? [];
}

/**
 * runsAroundWeek for many weeks at once, in two queries whatever their number (a projection batch touches many
 * users' goals): each week gets exactly the runs runsAroundWeek would give it. Answers by week key.
 */
export async function runsAroundWeeks(
  db: Kysely<object> | Transaction<object>,
  table: ReturnType<typeof sql.table>,
  weeks: readonly WeekOfRuns[],
): Promise<Map<string, GoalRun[]>> {
  const found = new Map<string, Row[]>(weeks.map((w) => [w.key, []]));
  if (weeks.length === 0) return new Map();
  const asked = weeks.map((w) => ({ key: w.key, user_id: w.userId, wfrom: w.from, wto: w.to }));
  // Two index range scans joined by UNION ALL (an OR of both conditions made PostgreSQL test every fact of the user
  // against a subquery: seconds per batch in a rebuild). A run can come from both halves; the second copy is dropped.
  // Each scan is a LATERAL subquery behind OFFSET 0 (which PostgreSQL does not flatten): it then runs once per asked
  // week on the (user_id, started_at) index. As a plain join, PostgreSQL guessed 100 rows for the asked weeks and
  // hashed the whole facts table instead (7.6 ms per run at 89k events, growing with the log; 0.1 ms this way).
  const { rows } = await sql<Row & { week_key: string }>`
    WITH w AS (
      SELECT * FROM ${sqlRecords(asked, 'key text, user_id text, wfrom timestamptz, wto timestamptz')} AS x
    ),
    wk AS (
      SELECT w.key, w.wfrom, f.run_id, f.user_id, f.started_at, f.ended_at, f.recorded_at, f.verification
      FROM w CROSS JOIN LATERAL (
        SELECT * FROM ${table} f
        WHERE f.user_id = w.user_id AND f.started_at >= w.wfrom AND f.started_at < w.wto
        OFFSET 0
      ) f
    ),
    reach AS (
      SELECT key, user_id, wfrom, max(COALESCE(ended_at, started_at)) AS ended_at FROM wk GROUP BY key, user_id, wfrom
    )
    SELECT key AS week_key, run_id, user_id, started_at, ended_at, recorded_at, verification FROM wk
    UNION ALL
    SELECT reach.key, f.run_id, f.user_id, f.started_at, f.ended_at, f.recorded_at, f.verification
    FROM reach CROSS JOIN LATERAL (
      SELECT * FROM ${table} f
      WHERE f.user_id = reach.user_id AND f.started_at < reach.ended_at
        AND COALESCE(f.ended_at, f.started_at) > reach.wfrom
      OFFSET 0
    ) f`.execute(db);
  const seen = new Set<string>();
  for (const row of rows) {
    const id = `${row.week_key}\u0000${row.run_id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    found.get(row.week_key)?.push(row);
  }
  // Repeats of a loaded recording (same track key), any week: one query for every user's keys.
  const keysByUser = new Map<string, Set<string>>();
  for (const week of weeks) {
    for (const row of found.get(week.key) ?? []) {
      const key = row.verification.policyVersion === 2 ? row.verification.trackKey : null;
      if (key === null) continue;
      const keys = keysByUser.get(week.userId) ?? new Set<string>();
      keys.add(key);
      keysByUser.set(week.userId, keys);
    }
  }
  if (keysByUser.size > 0) {
    const pairs = [...keysByUser].flatMap(([userId, keys]) =>
      [...keys].map((key) => ({ user_id: userId, track_key: key })),
    );
    const { rows: repeats } = await sql<Row>`
      SELECT f.run_id, f.user_id, f.started_at, f.ended_at, f.recorded_at, f.verification
      FROM ${sqlRecords(pairs, 'user_id text, track_key text')} AS k
      CROSS JOIN LATERAL (
        SELECT * FROM ${table} f WHERE f.user_id = k.user_id AND f.verification->>'trackKey' = k.track_key OFFSET 0
      ) f`.execute(db);
    // By user, so each week looks only at its own user's repeats (a batch asks for hundreds of weeks).
    const repeatsByUser = new Map<string, Row[]>();
    for (const repeat of repeats) {
      const own = repeatsByUser.get(repeat.user_id);
      if (own) own.push(repeat);
      else repeatsByUser.set(repeat.user_id, [repeat]);
    }
    for (const week of weeks) {
      const candidates = repeatsByUser.get(week.userId);
      if (!candidates) continue;
      const loaded = found.get(week.key)!;
      const keys = new Set(
        loaded.map((r) => (r.verification.policyVersion === 2 ? r.verification.trackKey : null)).filter((k) => k),
      );
      const ids = new Set(loaded.map((r) => r.run_id));
      for (const repeat of candidates) {
        const key = repeat.verification.policyVersion === 2 ? repeat.verification.trackKey : null;
        if (key === null || !keys.has(key) || ids.has(repeat.run_id)) continue;
        ids.add(repeat.run_id);
        loaded.push(repeat);
      }
    }
  }
  return new Map([...found].map(([key, rows]) => [key, rows.map(toGoalRun)]));
}
