import { CompiledQuery, type Kysely, sql } from 'kysely';
import { sqlRecords } from '../sql-records.ts';
import type { GoalsTable } from './goal-table.ts';

/**
 * The rows the current goal is chosen from, and when that choice could change with the clock alone. Precompiled:
 * the hottest read of the API ran kysely's builder and compiler on every request for a text that never changes; the
 * fixed text is also what the connections keep prepared (app-server/db/prepared-statements.ts).
 *
 * The first part is what the rule reads (the two newest live goals whose week has started); the second, the next live
 * goal still to start, whose start is the instant a cached answer must be read again (read-cache.ts `validUntil`).
 */
const CURRENT_GOAL_ROWS = `
  (SELECT g.*, true AS started FROM goals g
    WHERE g.user_id = $1 AND g.status IN ('active', 'completed') AND g.week_starts_at <= $2
    ORDER BY g.week_starts_at DESC LIMIT 2)
  UNION ALL
  (SELECT g.*, false AS started FROM goals g
    WHERE g.user_id = $1 AND g.status IN ('active', 'completed') AND g.week_starts_at > $2
    ORDER BY g.week_starts_at ASC LIMIT 1)`;

export interface CurrentGoalRows {
  /** The newest live goals whose week started at or before `now`, newest first (at most two). */
  readonly started: readonly GoalsTable[];
  /** The start of the next live goal after `now` (null: none); until then `started` stays the same without events. */
  readonly nextStart: Date | null;
}

/** The user's live goals around `now` (see CURRENT_GOAL_ROWS). */
export async function currentGoalRows(db: Kysely<object>, userId: string, now: Date): Promise<CurrentGoalRows> {
  const { rows } = await db.executeQuery<GoalsTable & { started: boolean }>(
    CompiledQuery.raw(CURRENT_GOAL_ROWS, [userId, now]),
  );
  const started: GoalsTable[] = [];
  let nextStart: Date | null = null;
  for (const { started: hasStarted, ...goal } of rows) {
    if (hasStarted) started.push(goal);
    else nextStart = new Date(goal.week_starts_at);
  }
  return { started, nextStart };
}

/**
 * The goal of the week the user is in: active or completed, its week (in its own zone) containing `now`; else the
 * newest still-active goal (a week that ended but is not settled yet).
 */
export function currentGoalOf(started: readonly GoalsTable[], now: Date): GoalsTable | null {
  return started.find((g) => now < g.week_ends_at) ?? started.find((g) => g.status === 'active') ?? null;
}

/**
 * The started rows of currentGoalRows for several users in ONE statement (the answers of the runs a group commit
 * saved: app-server/http/routes/saved-runs.ts), per user newest first; a user without any has none.
 */
export async function startedGoalRowsOfUsers(
  db: Kysely<object>,
  userIds: readonly string[],
  now: Date,
): Promise<Map<string, GoalsTable[]>> {
  const started = new Map<string, GoalsTable[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return started;
  const { rows } = await sql<GoalsTable>`
    SELECT g.* FROM ${sqlRecords(
      userIds.map((user_id) => ({ user_id })),
      'user_id text',
    )} AS u
    CROSS JOIN LATERAL (
      SELECT * FROM goals g
      WHERE g.user_id = u.user_id AND g.status IN ('active', 'completed') AND g.week_starts_at <= ${now}
      ORDER BY g.week_starts_at DESC LIMIT 2
    ) g`.execute(db);
  for (const row of rows) started.get(row.user_id)?.push(row);
  const newestFirst = (a: GoalsTable, b: GoalsTable) =>
    new Date(b.week_starts_at).getTime() - new Date(a.week_starts_at).getTime();
  for (const goals of started.values()) goals.sort(newestFirst);
  return started;
}
