import { sql, type Transaction } from 'kysely';
import { sqlRecords } from '../../../projections/sql-records.ts';
import { countableRun } from '../../../domain/run/count-once.ts';
import type { RunRecorded } from '../../../domain/run/events.ts';

/** What the process keeps of a run to find the goals it may change. */
export interface RunSpan {
  readonly userId: string;
  readonly runId: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly trackKey: string | null;
}

/**
 * Keeps the recorded runs of a batch in goal_lifecycle_runs (start, claimed end, recording time and verdict), in one
 * statement whatever their number. A run kept already (a batch worked again) stays as it was.
 */
export async function rememberRuns(
  tx: Transaction<object>,
  recorded: readonly RunRecorded['data'][],
): Promise<RunSpan[]> {
  if (recorded.length === 0) return [];
  const spans = recorded.map((d) => {
    const endedAt = new Date(countableRun(d, d.recordedAt).endedAtMs).toISOString();
    const trackKey = d.verification.policyVersion === 2 ? d.verification.trackKey : null;
    return { userId: d.userId, runId: d.runId, startedAt: d.startedAt, endedAt, trackKey };
  });
  const rows = recorded.map((d, i) => ({
    run_id: d.runId,
    user_id: d.userId,
    started_at: d.startedAt,
    ended_at: spans[i]!.endedAt,
    recorded_at: d.recordedAt,
    verification: d.verification,
  }));
  await sql`
    INSERT INTO goal_lifecycle_runs (run_id, user_id, started_at, ended_at, recorded_at, verification)
    SELECT run_id, user_id, started_at, ended_at, recorded_at, verification
    FROM ${sqlRecords(rows, 'run_id text, user_id text, started_at timestamptz, ended_at timestamptz, recorded_at timestamptz, verification jsonb')} AS r
    ON CONFLICT (run_id) DO NOTHING`.execute(tx);
  return spans;
}

/** Forgets a deleted run; returns what it was, or null when it was not kept. */
export async function forgetRun(tx: Transaction<object>, runId: string): Promise<RunSpan | null> {
  const { rows } = await sql<{ user_id: string; started_at: Date; ended_at: Date | null; track_key: string | null }>`
    DELETE FROM goal_lifecycle_runs WHERE run_id = ${runId}
    RETURNING user_id, started_at, ended_at, verification->>'trackKey' AS track_key`.execute(tx);
  const row = rows[0];
  if (!row) return null;
  const startedAt = new Date(row.started_at).toISOString();
  return {
    userId: row.user_id,
    runId,
    startedAt,
    endedAt: row.ended_at === null ? startedAt : new Date(row.ended_at).toISOString(),
    trackKey: row.track_key,
  };
}

/**
 * The starts of the run and of the runs whose count it can change: those its claimed time overlaps and those that
 * repeat its recording (domain/run/count-once.ts). Their goals, whatever week they are in, need their progress
 * recomputed when this run comes or goes.
 */
export async function startsAffectedBy(tx: Transaction<object>, run: RunSpan): Promise<string[]> {
  return (await startsAffectedByEach(tx, [run])).get(run.runId)!;
}

/**
 * startsAffectedBy for every run of a batch in one query, by run id. Kept before they are asked about (rememberRuns),
 * the batch's runs see each other whatever their order: a run then names a later one's start too, whose own answer
 * names it anyway, so the goals the batch recomputes are those run after run would.
 */
export async function startsAffectedByEach(
  tx: Transaction<object>,
  runs: readonly RunSpan[],
): Promise<Map<string, string[]>> {
  const out = new Map(runs.map((run) => [run.runId, [run.startedAt]]));
  if (runs.length === 0) return out;
  const asked = runs.map((r) => ({
    run_id: r.runId,
    user_id: r.userId,
    started_at: r.startedAt,
    ended_at: r.endedAt,
    track_key: r.trackKey,
  }));
  const { rows } = await sql<{ asked: string; started_at: Date }>`
    SELECT a.run_id AS asked, g.started_at
    FROM ${sqlRecords(asked, 'run_id text, user_id text, started_at timestamptz, ended_at timestamptz, track_key text')} AS a
    JOIN goal_lifecycle_runs g ON g.user_id = a.user_id AND g.run_id <> a.run_id AND (
      (g.started_at < a.ended_at AND COALESCE(g.ended_at, g.started_at) > a.started_at)
      OR g.verification->>'trackKey' = a.track_key)`.execute(tx);
  for (const row of rows) out.get(row.asked)!.push(new Date(row.started_at).toISOString());
  return out;
}
