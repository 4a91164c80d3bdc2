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
  const { rows } = await db.executeQuery<ChosenRow>(CompiledQuery.raw(CURRENT_GOAL_ROWS, [userId, now]));
  return asCurrentRows(rows);
}

/** A row CURRENT_GOAL_ROWS chose: a started goal, or the next one to start. */
type ChosenRow = GoalsTable & { started: boolean };

/** One user's chosen rows as CurrentGoalRows: the started ones newest first, and the next one's start. */
function asCurrentRows(rows: readonly ChosenRow[]): CurrentGoalRows {
  const started: GoalsTable[] = [];
  let nextStart: Date | null = null;
  for (const { started: hasStarted, ...goal } of rows) {
    if (hasStarted) started.push(goal);
    else nextStart = new Date(goal.week_starts_at);
  }
  started.sort((a, b) => new Date(b.week_starts_at).getTime() - new Date(a.week_starts_at).getTime());
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
 * currentGoalRows for several users in ONE statement (the answers of the runs a group commit saved:
 * app-server/http/routes/saved-runs.ts): each user's started rows, newest first, and next start; a user without any
 * live goal has none and null. The same rows as currentGoalRows, so the answer can be kept as that user's cached read.
 */
export async function currentGoalRowsOfUsers(
  db: Kysely<object>,
  userIds: readonly string[],
  now: Date,
): Promise<Map<string, CurrentGoalRows>> {
  const chosen = new Map<string, ChosenRow[]>(userIds.map((id) => [id, []]));
  if (userIds.length > 0) {
    const { rows } = await sql<ChosenRow>`
      WITH u AS (SELECT * FROM ${sqlRecords(
        userIds.map((user_id) => ({ user_id })),
        'user_id text',
      )} AS u)
      SELECT g.*, true AS started FROM u
      CROSS JOIN LATERAL (
        SELECT * FROM goals g
        WHERE g.user_id = u.user_id AND g.status IN ('active', 'completed') AND g.week_starts_at <= ${now}
        ORDER BY g.week_starts_at DESC LIMIT 2
      ) g
      UNION ALL
      SELECT g.*, false AS started FROM u
      CROSS JOIN LATERAL (
        SELECT * FROM goals g
        WHERE g.user_id = u.user_id AND g.status IN ('active', 'completed') AND g.week_starts_at > ${now}
        ORDER BY g.week_starts_at ASC LIMIT 1
      ) g`.execute(db);
    for (const row of rows) chosen.get(row.user_id)?.push(row);
  }
  return new Map([...chosen].map(([userId, rows]) => [userId, asCurrentRows(rows)]));
}
