import { type Kysely, sql, type Transaction } from 'kysely';
import type { TableNames } from '../engine/projector.ts';

/** The distances a fastest-run record is kept for (the challenges' 5 km and 10 km leaderboards). */
export const RECORD_DISTANCES_KM = [5, 10] as const;

/** Creates the records table under its physical name. */
export async function createRunRecordsTable(db: Kysely<object> | Transaction<object>, table: string): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(table)} (
      user_id text NOT NULL,
      km integer NOT NULL,
      synced_included boolean NOT NULL,
      run_id text NOT NULL,
      PRIMARY KEY (user_id, km, synced_included)
    )`.execute(db);
}

/**
 * Each user's fastest run over 5 km and over 10 km, twice: among all their runs (what they see of themselves), and
 * among their GPS runs only (what other members see: the Strava terms keep synced runs to their owner). The group
 * challenges read these instead of every run every member ever made (projections/groups/group-stats-queries.ts).
 *
 * Worked out in SQL, with the very filters and order the challenges used on all runs: a rejected run never counts,
 * a run needs a duration, and at least the distance as `fastestOver` rounds it (`km * 100 >= 499.5` for 5 km, in the
 * same double precision), the fastest by seconds per km, ties by run id in the database's own order. A user's records
 * are worked out again whenever a batch records or deletes one of their runs.
 */
export async function refreshRunRecords(
  db: Kysely<object> | Transaction<object>,
  tables: TableNames<'runs' | 'run_records'>,
  userIds: readonly string[] | 'all',
): Promise<void> {
  const runs = sql.table(tables.runs);
  const records = sql.table(tables.run_records);
  const ofUsers = (column: string) =>
    userIds === 'all' ? sql`true` : sql`${sql.ref(column)} = ANY(${[...userIds]}::text[])`;
  // One statement: the records worked out again, written over the old ones, and the old ones no run holds any more
  // (its run deleted or rejected) removed. The two touch different keys, so neither waits for the other's row.
  await sql`
    WITH best AS (
      SELECT DISTINCT ON (r.user_id, d.km, s.synced_included) r.user_id, d.km, s.synced_included, r.id AS run_id
      FROM ${runs} r
      CROSS JOIN (VALUES ${sql.join(RECORD_DISTANCES_KM.map((km) => sql`(${km}::integer)`))}) AS d(km)
      CROSS JOIN (VALUES (true), (false)) AS s(synced_included)
      WHERE ${ofUsers('r.user_id')} AND r.verdict <> 'rejected' AND r.duration_sec > 0
        AND r.distance_km * 100 >= (d.km * 100 - 0.5)::double precision
        AND (s.synced_included OR r.source = 'gps')
      ORDER BY r.user_id, d.km, s.synced_included, r.duration_sec / r.distance_km, r.id
    ),
    gone AS (
      DELETE FROM ${records} AS o
      WHERE ${ofUsers('o.user_id')} AND NOT EXISTS (
        SELECT 1 FROM best b WHERE b.user_id = o.user_id AND b.km = o.km AND b.synced_included = o.synced_included)
    )
    INSERT INTO ${records} AS t (user_id, km, synced_included, run_id)
    SELECT user_id, km, synced_included, run_id FROM best
    ON CONFLICT (user_id, km, synced_included) DO UPDATE SET run_id = excluded.run_id
      WHERE t.run_id IS DISTINCT FROM excluded.run_id`.execute(db);
}
