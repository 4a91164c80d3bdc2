import type { Kysely } from 'kysely';
import { countOnce } from '../../../domain/run/count-once.ts';
import { currentGoalOf, startedGoalRowsOfUsers } from '../../../projections/goals/current-goal.ts';
import { goalWeeksOfSpans } from '../../../projections/goals/goal-weeks.ts';
import { findOwnRunsWithNeighbours, ownRunKey } from '../../../projections/runs/run-queries.ts';
import type { Clock } from '../../clock.ts';
import { GroupedStatements } from '../../db/grouped-statements.ts';
import { HttpError } from '../errors.ts';
import { goalJson } from './goals-json.ts';
import { countable, runJson } from './runs-json.ts';

/** A saved run's answer (§7 POST /runs): the run with its verdict, and the current goal with the run counted. */
export type SavedRunAnswer = Awaited<ReturnType<typeof answersOf>>[number];

/**
 * The answers of saved runs, for the runs the same group commit saved (or any asked side by side) in three statements
 * however many there are: the runs with their neighbours, the weeks around them, their runners' current goals. One
 * run's answer alone took four statements of its own, as many as saving it in a group (docs/PERFORMANCE.md).
 * Each answer is exactly what runsJson and findCurrentGoal give for one run: a run of another user, or none, is 404.
 * Reads the primary: the answer follows the run's own write (it never runs in a read-only request's replica scope).
 */
export function savedRunAnswers(db: Kysely<object>, clock: Clock) {
  const grouped = new GroupedStatements((asked: readonly { userId: string; runId: string }[]) =>
    answersOf(db, asked, clock.now()),
  );
  return async (userId: string, runId: string) => {
    const answer = await grouped.ask({ userId, runId });
    if (!answer) throw new HttpError(404, 'Run not found');
    return answer;
  };
}

async function answersOf(db: Kysely<object>, asked: readonly { userId: string; runId: string }[], now: Date) {
  const found = await findOwnRunsWithNeighbours(db, asked);
  const saved = [...found.values()];
  const users = [...new Set(saved.map(({ run }) => run.user_id))];
  // The goals each run's start counts toward (goalWeeksBetween over the run's own instant, as runsJson asks).
  const spans = saved.map(({ run }) => {
    const startedMs = new Date(run.started_at).getTime();
    return { userId: run.user_id, fromMs: startedMs, toMs: startedMs };
  });
  const [started, weeks] = await Promise.all([startedGoalRowsOfUsers(db, users, now), goalWeeksOfSpans(db, spans)]);
  const weeksOf = new Map(saved.map(({ run }, i) => [run, weeks[i]!]));
  return asked.map(({ userId, runId }) => {
    const one = found.get(ownRunKey(userId, runId));
    if (!one) return null;
    const counted = countOnce(one.neighbours.map(countable), 'staked_goal').get(runId);
    const goal = currentGoalOf(started.get(userId) ?? [], now);
    return {
      success: true as const,
      data: runJson(one.run, counted, weeksOf.get(one.run) ?? []),
      goal: goal ? goalJson(goal, now) : null,
    };
  });
}
