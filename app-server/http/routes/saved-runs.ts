import type { Kysely } from 'kysely';
import { countOnce } from '../../../domain/run/count-once.ts';
import { currentGoalOf, currentGoalRowsOfUsers } from '../../../projections/goals/current-goal.ts';
import { goalWeeksOfSpans } from '../../../projections/goals/goal-weeks.ts';
import { findOwnRunsWithNeighbours, ownRunKey } from '../../../projections/runs/run-queries.ts';
import type { Clock } from '../../clock.ts';
import { GroupedStatements } from '../../db/grouped-statements.ts';
import { currentGoalReadKey, rowsValidUntil } from '../current-goal-read.ts';
import { HttpError } from '../errors.ts';
import type { ReadCache } from '../read-cache.ts';
import { goalJson } from './goals-json.ts';
import { countable, runJson } from './runs-json.ts';

/** A saved run's answer (§7 POST /runs): the run with its verdict, and the current goal with the run counted. */
export type SavedRunAnswer = Awaited<ReturnType<typeof answersOf>>[number];

/** A saved run asked for; `startedAtMs`: when the run began, if the caller knows it (POST /runs: its body's). */
interface Asked {
  readonly userId: string;
  readonly runId: string;
  readonly startedAtMs?: number;
}

/**
 * The answers of saved runs, for the runs the same group commit saved (or any asked side by side) in three statements
 * however many there are: the runs with their neighbours, the weeks around them, their runners' current goals. One
 * run's answer alone took four statements of its own, as many as saving it in a group (docs/PERFORMANCE.md).
 * Each answer is exactly what runsJson and findCurrentGoal give for one run: a run of another user, or none, is 404.
 * Reads the primary: the answer follows the run's own write (it never runs in a read-only request's replica scope).
 */
export function savedRunAnswers(db: Kysely<object>, clock: Clock, cache: ReadCache | null = null) {
  const grouped = new GroupedStatements((asked: readonly Asked[]) => answersOf(db, cache, asked, clock.now()));
  /** `startedAtMs`, when known, lets the three statements go together (see answersOf). */
  return async (userId: string, runId: string, startedAtMs?: number) => {
    const answer = await grouped.ask({ userId, runId, ...(startedAtMs === undefined ? {} : { startedAtMs }) });
    if (!answer) throw new HttpError(404, 'Run not found');
    return answer;
  };
}

/**
 * The three statements at once, not the runs first and then the two that depend on them (two round trips after the
 * commit, which every POST /runs waited for): the goals are read for the users asked (a found run is always the asked
 * user's), the weeks for the start each caller gave. A run found starting elsewhere (a copy of a recording posted with
 * another start answers the run saved first) or asked without a start has its weeks read after, as before.
 */
async function answersOf(db: Kysely<object>, cache: ReadCache | null, asked: readonly Asked[], now: Date) {
  const users = [...new Set(asked.map((a) => a.userId))];
  const hinted = asked.flatMap((a) => (a.startedAtMs === undefined ? [] : [a]));
  const fill = await goalRowsFill(cache);
  const [found, current, hintedWeeks] = await Promise.all([
    findOwnRunsWithNeighbours(db, asked),
    currentGoalRowsOfUsers(db, users, now),
    goalWeeksOfSpans(
      db,
      hinted.map((a) => ({ userId: a.userId, fromMs: a.startedAtMs!, toMs: a.startedAtMs! })),
    ),
  ]);
  const weeksByRun = new Map(
    hinted.map((a, i) => [ownRunKey(a.userId, a.runId), { atMs: a.startedAtMs!, weeks: hintedWeeks[i]! }]),
  );
  // The goals each run's start counts toward (goalWeeksBetween over the run's own instant, as runsJson asks).
  const unknown = [...found].flatMap(([key, { run }]) => {
    const startedMs = new Date(run.started_at).getTime();
    return weeksByRun.get(key)?.atMs === startedMs ? [] : [{ key, userId: run.user_id, startedMs }];
  });
  if (unknown.length > 0) {
    const weeks = await goalWeeksOfSpans(
      db,
      unknown.map((u) => ({ userId: u.userId, fromMs: u.startedMs, toMs: u.startedMs })),
    );
    for (const [i, u] of unknown.entries()) weeksByRun.set(u.key, { atMs: u.startedMs, weeks: weeks[i]! });
  }
  for (const [userId, rows] of current) fill?.keep(currentGoalReadKey(userId, now), rows.started, rowsValidUntil(rows));
  return asked.map(({ userId, runId }) => {
    const one = found.get(ownRunKey(userId, runId));
    if (!one) return null;
    const counted = countOnce(one.neighbours.map(countable), 'staked_goal').get(runId);
    const goal = currentGoalOf(current.get(userId)?.started ?? [], now);
    return {
      success: true as const,
      data: runJson(one.run, counted, weeksByRun.get(ownRunKey(userId, runId))?.weeks ?? []),
      goal: goal ? goalJson(goal, now) : null,
    };
  });
}

/**
 * The runner's next request is GET /goals/current (the app refreshes its dashboard after a run): the answer's goal
 * rows are that read's, kept in the read cache so that it is answered without a statement. Exact as any fill
 * (read-cache.ts `beginFill`): begun before the rows are read, after a LISTEN round trip that started after the
 * run committed, so the run's own announcement is heard first and does not make the entry stale as it arrives.
 * Without a cache, or while the LISTEN connection is down, nothing is kept.
 */
async function goalRowsFill(cache: ReadCache | null) {
  if (!cache) return null;
  try {
    await cache.barrier();
  } catch {
    return null;
  }
  return cache.beginFill();
}
