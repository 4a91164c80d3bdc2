import type { Kysely } from 'kysely';
import { type CountableRun, type CountedOnce, countOnce } from '../../../domain/run/count-once.ts';
import { countedTowardAt, type GoalWeek } from '../../../domain/run/counted-toward.ts';
import { figuresOfAnswer } from '../../../domain/run/run-figures.ts';
import { verificationJson } from '../../../domain/run/verification-json.ts';
import { goalWeeksBetween } from '../../../projections/goals/goal-weeks.ts';
import { type RunListRow, runNeighbours } from '../../../projections/runs/run-queries.ts';

export const countable = (run: RunListRow): CountableRun => ({
  runId: run.id,
  startedAtMs: new Date(run.started_at).getTime(),
  endedAtMs: new Date(run.ended_at).getTime(),
  recordedAtMs: new Date(run.recorded_at).getTime(),
  verification: run.verification,
});

/**
 * What each run counts toward a stake once the user's other runs are known (domain/run/count-once.ts): the runs of
 * the page are judged with their neighbours (runs overlapping the page's time, runs repeating their tracks).
 */
export async function countedOnceFor(
  db: Kysely<object>,
  userId: string,
  runs: readonly RunListRow[],
): Promise<Map<string, CountedOnce>> {
  if (runs.length === 0) return new Map();
  const trackKeys = runs.flatMap((r) =>
    r.verification.policyVersion === 2 && r.verification.trackKey ? [r.verification.trackKey] : [],
  );
  const neighbours = await runNeighbours(db, userId, {
    fromMs: Math.min(...runs.map((r) => new Date(r.started_at).getTime())),
    toMs: Math.max(...runs.map((r) => new Date(r.ended_at).getTime())),
    trackKeys,
  });
  const all = new Map([...neighbours, ...runs].map((r) => [r.id, countable(r)]));
  return countOnce([...all.values()], 'staked_goal');
}

/**
 * A run as the API answers it (§3 Run), with its pace and its verification: the verdict and its reasons, the
 * claimed distance, what counts toward a stake (after the cross-run rules: `counted` from countedOnceFor) and for
 * XP and free goals, what was left out and why, and the same in one sentence for people: about the stake of the run's
 * week only when it has one (`goals`: the user's goals around the run, goalWeeksBetween).
 */
export function runJson(run: RunListRow, counted: CountedOnce | undefined, goals: readonly GoalWeek[]) {
  const toward = countedTowardAt(goals, new Date(run.started_at).getTime());
  const verification = verificationJson(run.verification, run.distance_km, counted, toward);
  // The pace every screen shows: over the distance the policy counts, not the claimed one (run-figures.ts).
  const { paceSecPerKm } = figuresOfAnswer({
    distance_km: run.distance_km,
    duration_sec: run.duration_sec,
    verification,
  });
  return {
    id: run.id,
    user_id: run.user_id,
    started_at: new Date(run.started_at).toISOString(),
    distance_km: run.distance_km,
    duration_sec: run.duration_sec,
    pace_sec_per_km: paceSecPerKm === null ? null : Math.round(paceSecPerKm),
    source: run.source,
    import_id: run.import_id,
    notes: run.notes,
    verification,
    recorded_at: new Date(run.recorded_at).toISOString(),
  };
}

/** A list of runs as the API answers it, each counted among its neighbours. */
export async function runsJson(db: Kysely<object>, userId: string, runs: readonly RunListRow[]) {
  const counted = await countedOnceFor(db, userId, runs);
  const starts = runs.map((r) => new Date(r.started_at).getTime());
  const goals = runs.length === 0 ? [] : await goalWeeksBetween(db, userId, Math.min(...starts), Math.max(...starts));
  return runs.map((run) => runJson(run, counted.get(run.id), goals));
}
