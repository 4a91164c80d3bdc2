import type { Kysely } from 'kysely';
import type { GoalWeek } from '../../domain/run/counted-toward.ts';
import type { GoalsTable } from './goal-table.ts';

type Db = Kysely<{ goals: GoalsTable }>;

/**
 * The user's goals whose weeks overlap [fromMs, toMs] (deleted ones are gone), as domain/run/counted-toward.ts reads
 * them: what the runs started in that span count toward.
 */
export async function goalWeeksBetween(
  db: Kysely<object>,
  userId: string,
  fromMs: number,
  toMs: number,
): Promise<GoalWeek[]> {
  const rows = await (db as Db)
    .selectFrom('goals')
    .select(['week_starts_at', 'week_ends_at', 'stake_amount_cents', 'status'])
    .where('user_id', '=', userId)
    .where('status', '!=', 'deleted')
    .where('week_starts_at', '<=', new Date(toMs))
    .where('week_ends_at', '>', new Date(fromMs))
    .orderBy('week_starts_at', 'desc')
    .execute();
  return rows.map((g) => ({
    weekStartsAtMs: new Date(g.week_starts_at).getTime(),
    weekEndsAtMs: new Date(g.week_ends_at).getTime(),
    stakeAmountCents: g.stake_amount_cents,
    canceled: g.status === 'canceled',
  }));
}
