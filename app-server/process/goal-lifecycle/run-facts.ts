import { sql, type Transaction } from 'kysely';
import { countableRun } from '../../../domain/run/count-once.ts';
import type { RunRecorded } from '../../../domain/run/events.ts';

/** What the process keeps of a run to find the goals it may change. */
interface RunSpan {
  readonly userId: string;
  readonly runId: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly trackKey: string | null;
}

/** Keeps a recorded run in goal_lifecycle_runs (its start, claimed end, recording time and verdict). */
export async function rememberRun(tx: Transaction<object>, d: RunRecorded['data']): Promise<RunSpan> {
  const run = countableRun(d, d.recordedAt);
  const endedAt = new Date(run.endedAtMs).toISOString();
  await sql`
    INSERT INTO goal_lifecycle_runs (run_id, user_id, started_at, ended_at, recorded_at, verification)
    VALUES (${d.runId}, ${d.userId}, ${d.startedAt}::timestamptz, ${endedAt}::timestamptz,
            ${d.recordedAt}::timestamptz, ${JSON.stringify(d.verification)}::jsonb)
    ON CONFLICT (run_id) DO NOTHING`.execute(tx);
  const trackKey = d.verification.policyVersion === 2 ? d.verification.trackKey : null;
  return { userId: d.userId, runId: d.runId, startedAt: d.startedAt, endedAt, trackKey };
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
  const { rows } = await sql<{ started_at: Date }>`
    SELECT started_at FROM goal_lifecycle_runs
    WHERE user_id = ${run.userId} AND run_id <> ${run.runId} AND (
      (started_at < ${run.endedAt}::timestamptz AND COALESCE(ended_at, started_at) > ${run.startedAt}::timestamptz)
      OR verification->>'trackKey' = ${run.trackKey})`.execute(tx);
  return [run.startedAt, ...rows.map((r) => new Date(r.started_at).toISOString())];
}
