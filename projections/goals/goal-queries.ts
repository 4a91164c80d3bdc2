import type { Kysely } from 'kysely';
import { currentGoalOf, currentGoalRows } from './current-goal.ts';
import type { GoalsTable } from './goal-table.ts';

type Db = Kysely<{ goals: GoalsTable }>;

/** The user's goal by id; null when absent, deleted or someone else's. */
export async function findOwnGoal(db: Kysely<object>, userId: string, goalId: string): Promise<GoalsTable | null> {
  const row = await (db as Db)
    .selectFrom('goals')
    .selectAll()
    .where('id', '=', goalId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'deleted')
    .executeTakeFirst();
  return row ?? null;
}

/** The goal of the week the user is in (current-goal.ts `currentGoalOf`); null when there is none. */
export async function findCurrentGoal(db: Kysely<object>, userId: string, now: Date): Promise<GoalsTable | null> {
  return currentGoalOf((await currentGoalRows(db, userId, now)).started, now);
}

/** The user's upcoming goal (at most one exists). */
export async function findUpcomingGoal(db: Kysely<object>, userId: string): Promise<GoalsTable | null> {
  const row = await (db as Db)
    .selectFrom('goals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'upcoming')
    .orderBy('week_starts_at', 'asc')
    .executeTakeFirst();
  return row ?? null;
}

/** The user's goals, newest week first (history), optionally of one status. */
export async function listGoals(
  db: Kysely<object>,
  userId: string,
  options: { limit: number; status?: GoalsTable['status'] | undefined },
): Promise<GoalsTable[]> {
  let query = (db as Db).selectFrom('goals').selectAll().where('user_id', '=', userId).where('status', '!=', 'deleted');
  if (options.status) query = query.where('status', '=', options.status);
  return query
    .orderBy('week_starts_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(options.limit)
    .execute();
}
