import type { Kysely } from 'kysely';
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

/**
 * The goal of the week the user is in: active or completed, its week (in its own zone) containing `now`; else the
 * newest still-active goal (a week that ended but is not settled yet).
 */
export async function findCurrentGoal(db: Kysely<object>, userId: string, now: Date): Promise<GoalsTable | null> {
  const rows = await (db as Db)
    .selectFrom('goals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'completed'])
    .where('week_starts_at', '<=', now)
    .orderBy('week_starts_at', 'desc')
    .limit(2)
    .execute();
  return rows.find((g) => now < g.week_ends_at) ?? rows.find((g) => g.status === 'active') ?? null;
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
