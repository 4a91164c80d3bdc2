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
  const columns = sql`run_id, user_id, started_at, ended_at, recorded_at, verification`;
  const { rows } = await sql<Row>`
    WITH wk AS (
      SELECT run_id, COALESCE(ended_at, started_at) AS ended_at FROM ${table}
      WHERE user_id = ${userId} AND started_at >= ${week.from}::timestamptz AND started_at < ${week.to}::timestamptz
    )
    SELECT ${columns} FROM ${table}
    WHERE user_id = ${userId} AND (
      run_id IN (SELECT run_id FROM wk)
      OR (COALESCE(ended_at, started_at) > ${week.from}::timestamptz AND started_at < (SELECT max(ended_at) FROM wk)))`.execute(
    db,
  );
  const keys = [
    ...new Set(rows.map((r) => (r.verification.policyVersion === 2 ? r.verification.trackKey : null))),
  ].filter((k): k is string => k !== null);
  const loaded = new Set(rows.map((r) => r.run_id));
  const repeats =
    keys.length === 0
      ? []
      : (
          await sql<Row>`
            SELECT ${columns} FROM ${table}
            WHERE user_id = ${userId} AND verification->>'trackKey' = ANY(${keys}::text[])`.execute(db)
        ).rows.filter((r) => !loaded.has(r.run_id));
  return [...rows, ...repeats].map(toGoalRun);
}
