import type { Kysely } from 'kysely';
import { type CurrentGoalRows, currentGoalRows } from '../../projections/goals/current-goal.ts';
import type { GoalsTable } from '../../projections/goals/goal-table.ts';
import { type CacheReads, cachedRead, type ReadKey } from './read-cache.ts';

/*
 * GET /goals/current's cached read, in one place for the two that use it: the route, and a saved run's answer
 * (routes/saved-runs.ts), which reads the same rows and keeps them for the runner's next GET.
 */

/**
 * The entry of a user's current goal rows: the rows are cached, not the answer (the percentage is the rows', but days
 * left and which goal is current move with the clock), and `now` bounds it to the instant the rows were chosen for.
 */
export function currentGoalReadKey(userId: string, now: Date): ReadKey<readonly GoalsTable[]> {
  return { userId, read: 'goals/current', query: '', topics: ['goals'], now: now.getTime() };
}

/** Until when the started rows stay the same without an event: the next live goal's start (read-cache.ts `validUntil`). */
export function rowsValidUntil(rows: CurrentGoalRows): number {
  return rows.nextStart?.getTime() ?? Number.POSITIVE_INFINITY;
}

/** The user's started goal rows at `now`, from the cache when exact. */
export function cachedCurrentGoalRows(
  cache: CacheReads | null | undefined,
  db: Kysely<object>,
  userId: string,
  now: Date,
): Promise<readonly GoalsTable[]> {
  return cachedRead(cache, currentGoalReadKey(userId, now), async () => {
    const rows = await currentGoalRows(db, userId, now);
    return { value: rows.started, validUntil: rowsValidUntil(rows) };
  });
}
