import type { Kysely } from 'kysely';
import type { GoalPauseRow, GoalPauseTables } from './goal-pauses-projector.ts';

/** The user's paused weeks, earliest first (their own only: every query is by the signed-in user's id). */
export async function listPauses(db: Kysely<object>, userId: string): Promise<GoalPauseRow[]> {
  return (db as Kysely<GoalPauseTables>)
    .selectFrom('goal_pauses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('week_start')
    .execute();
}

/** The Mondays of the user's paused weeks, for the streak (streaks.ts skips them). */
export async function pausedWeeksOf(db: Kysely<object>, userId: string): Promise<Set<string>> {
  return new Set((await listPauses(db, userId)).map((p) => p.week_start));
}

/** The paused Mondays of several users at once (a group's members), by user; users without pauses are absent. */
export async function pausedWeeksOfUsers(
  db: Kysely<object>,
  userIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const byUser = new Map<string, Set<string>>();
  if (userIds.length === 0) return byUser;
  const rows = await (db as Kysely<GoalPauseTables>)
    .selectFrom('goal_pauses')
    .select(['user_id', 'week_start'])
    .where('user_id', 'in', userIds)
    .execute();
  for (const row of rows) {
    const weeks = byUser.get(row.user_id) ?? new Set<string>();
    weeks.add(row.week_start);
    byUser.set(row.user_id, weeks);
  }
  return byUser;
}
