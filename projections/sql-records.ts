import { type RawBuilder, sql } from 'kysely';

/**
 * A batch of rows sent as one JSON parameter, as a table a statement can read or join:
 * `(SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(<columns>) LIMIT $2)`, to be named with `AS` after it.
 *
 * Why the LIMIT, equal to the number of rows: PostgreSQL cannot see into the JSON and guesses 100 rows for any
 * jsonb_to_recordset. Joined to a table of a few thousand rows, a batch of one is then planned as a hash join over a
 * sequential scan of the whole table: the inline goal-progress UPDATE of every POST /runs read all 8,000 goals of the
 * 105k-event bench log (1.8 ms a run, growing with the table) to change one. A LIMIT is a constant in the statement's
 * plan, so the planner expects that many rows (at most the 100 it guessed) and probes the table's index per row for a
 * small batch. Every batched statement takes its rows through here (tests/projections/sql-records.test.ts checks it),
 * so none is left guessing small.
 *
 * `columns` is SQL (`id text, progress double precision`): always a literal in our code, never input.
 */
export function sqlRecords(rows: readonly unknown[], columns: string): RawBuilder<unknown> {
  return sql`(SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(${sql.raw(columns)}) LIMIT ${rows.length})`;
}
