import { type Kysely, sql } from 'kysely';
import { sqlRecords } from '../sql-records.ts';
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
  return rows.map(goalWeekOf);
}

const goalWeekOf = (g: Pick<GoalsTable, 'week_starts_at' | 'week_ends_at' | 'stake_amount_cents' | 'status'>) => ({
  weekStartsAtMs: new Date(g.week_starts_at).getTime(),
  weekEndsAtMs: new Date(g.week_ends_at).getTime(),
  stakeAmountCents: g.stake_amount_cents,
  canceled: g.status === 'canceled',
});

/**
 * goalWeeksBetween for several spans (several users') in ONE statement, answered in the order asked: the answers of
 * the runs a group commit saved (app-server/http/routes/saved-runs.ts). Per span a LATERAL scan behind OFFSET 0, on
 * the user's goals, as PostgreSQL would plan it for one.
 */
export async function goalWeeksOfSpans(
  db: Kysely<object>,
  spans: readonly { readonly userId: string; readonly fromMs: number; readonly toMs: number }[],
): Promise<GoalWeek[][]> {
  if (spans.length === 0) return [];
  const records = spans.map((s, i) => ({
    i,
    user_id: s.userId,
    wfrom: new Date(s.fromMs).toISOString(),
    wto: new Date(s.toMs).toISOString(),
  }));
  const { rows } = await sql<
    Pick<GoalsTable, 'week_starts_at' | 'week_ends_at' | 'stake_amount_cents' | 'status'> & { i: number }
  >`
    SELECT s.i, g.week_starts_at, g.week_ends_at, g.stake_amount_cents, g.status
    FROM ${sqlRecords(records, 'i integer, user_id text, wfrom timestamptz, wto timestamptz')} AS s
    CROSS JOIN LATERAL (
      SELECT * FROM goals g
      WHERE g.user_id = s.user_id AND g.status <> 'deleted' AND g.week_starts_at <= s.wto AND g.week_ends_at > s.wfrom
      ORDER BY g.week_starts_at DESC
      OFFSET 0
    ) g`.execute(db);
  const weeks: GoalWeek[][] = spans.map(() => []);
  for (const row of rows) weeks[row.i]!.push(goalWeekOf(row));
  return weeks;
}
