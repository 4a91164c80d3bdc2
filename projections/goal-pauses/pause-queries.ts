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
