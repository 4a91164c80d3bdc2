import { sqlRecords } from '../sql-records.ts';
import { sql, type Transaction } from 'kysely';
import { goalProgress } from '../../domain/goal/progress.ts';
import type { GoalType } from '../../domain/goal/target.ts';
import type { TableNames } from '../engine/projector.ts';
import { runsAroundWeeks } from './runs-around-week.ts';

type OpenGoal = {
  id: string;
  user_id: string;
  type: GoalType;
  stake_amount_cents: number;
  time_zone: string;
  period_start: string;
  week_starts_at: Date;
  week_ends_at: Date;
  progress: number;
};

/**
 * Sets `progress` of every unfrozen goal of these users from the run facts, by the one rule the lifecycle process
 * also uses (domain/goal/progress.ts): the runs of the goal's week in its zone, counted once among the runs they
 * overlap or repeat, staked goals only with what may move money. Every unfrozen goal is recomputed, not only the
 * week of the changed run: a run can change its neighbours' fate across a week boundary (an overlap at midnight, a
 * repeated recording), and a result that depends only on the runs present makes a rebuild match the live copy.
 * Frozen goals (missed, or completed and closed) keep the progress they were settled with. At most four statements
 * per batch whatever the number of goals: the goals, their runs and repeats (runsAroundWeeks), the changed figures.
 */
export async function recomputeProgress(
  tx: Transaction<object>,
  tables: TableNames<'goals' | 'goal_run_facts'>,
  userIds: readonly string[],
): Promise<void> {
  const goals = sql.table(tables.goals);
  const facts = sql.table(tables.goal_run_facts);
  const { rows } = await sql<OpenGoal>`
    SELECT id, user_id, type, stake_amount_cents, time_zone, period_start, week_starts_at, week_ends_at, progress
    FROM ${goals} WHERE user_id = ANY(${userIds}::text[]) AND NOT frozen ORDER BY id`.execute(tx);
  const runs = await runsAroundWeeks(
    tx,
    facts,
    rows.map((goal) => ({
      key: goal.id,
      userId: goal.user_id,
      from: new Date(goal.week_starts_at).toISOString(),
      to: new Date(goal.week_ends_at).toISOString(),
    })),
  );
  const changed: { id: string; progress: number }[] = [];
  for (const goal of rows) {
    const progress = goalProgress(
      {
        userId: goal.user_id,
        type: goal.type,
        stakeAmountCents: goal.stake_amount_cents,
        weekStart: goal.period_start,
        timeZone: goal.time_zone,
      },
      runs.get(goal.id) ?? [],
    );
    if (progress !== goal.progress) changed.push({ id: goal.id, progress });
  }
  if (changed.length > 0) {
    await sql`
      UPDATE ${goals} AS g SET progress = c.progress
      FROM ${sqlRecords(changed, 'id text, progress double precision')} AS c
      WHERE g.id = c.id`.execute(tx);
  }
}
