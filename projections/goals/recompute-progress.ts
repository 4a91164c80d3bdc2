import { sql, type Transaction } from 'kysely';
import type { TableNames } from '../runner/projector.ts';

/**
 * Sets `progress` of every unfrozen goal of these users from the run facts, in one statement: the sum of counted km
 * (2 decimals) for a distance goal, the number of runs that count for a count goal. A staked goal sums the staked
 * contribution, a free goal the free one (domain/run/counting.ts). Runs count when they started in
 * [week start, next week start) in the goal's zone, as `goalProgress` in domain/goal/progress.ts.
 */
export async function recomputeProgress(
  tx: Transaction<object>,
  tables: TableNames<'goals' | 'goal_run_facts'>,
  userIds: readonly string[],
): Promise<void> {
  const goals = sql.table(tables.goals);
  const facts = sql.table(tables.goal_run_facts);
  await sql`
    UPDATE ${goals} AS g SET progress = p.progress
    FROM (
      SELECT g2.id,
        CASE WHEN g2.type = 'count'
          THEN count(f.run_id) FILTER (
            WHERE (CASE WHEN g2.stake_amount_cents > 0 THEN f.km_staked ELSE f.km_free END) > 0)::double precision
          ELSE round(COALESCE(sum(CASE WHEN g2.stake_amount_cents > 0 THEN f.km_staked ELSE f.km_free END), 0)::numeric,
                     2)::double precision
        END AS progress
      FROM ${goals} AS g2
      LEFT JOIN ${facts} AS f
        ON f.user_id = g2.user_id AND f.started_at >= g2.week_starts_at AND f.started_at < g2.week_ends_at
      WHERE g2.user_id = ANY(${userIds}::text[]) AND NOT g2.frozen
      GROUP BY g2.id, g2.type, g2.stake_amount_cents
    ) AS p
    WHERE g.id = p.id AND g.progress IS DISTINCT FROM p.progress`.execute(tx);
}
