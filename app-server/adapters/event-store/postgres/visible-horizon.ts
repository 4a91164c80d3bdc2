/**
 * `es_visible_horizon()`: the transaction id below which the global log is complete for the calling statement's
 * snapshot. Readers pass only events with `tx_id` below it (see read-events.ts).
 *
 * Why not simply `pg_snapshot_xmin(pg_current_snapshot())`: transaction ids are shared by every database of a
 * PostgreSQL server, so that horizon also waits for transactions of other databases, which never write our log.
 * One long transaction in any database (a report, a migration, another application, another test file on a CI
 * server) would then hold every projection and every read-your-write wait of this one. This horizon is the oldest
 * in-progress transaction of the snapshot that is not known to belong to another database. It stays conservative:
 * an in-progress id it cannot place (its backend has ended since, the role may not see other sessions' ids, a
 * prepared transaction) still holds the horizon back, so an event is never passed before it is visible.
 * STABLE, so it sees the calling statement's snapshot; call it once per statement (`(select es_visible_horizon())`).
 *
 * Not monotone from one statement to the next: a transaction of another database that ends after a statement took
 * its snapshot but before it looked at the sessions cannot be placed, so that one statement's horizon stops at it,
 * below what an earlier statement saw. What one statement shows is complete up to its own horizon, never up to an
 * earlier statement's: a reader that moves past "everything up to the head" must read the head and the events in one
 * statement (readAllToHead, read-events.ts). The engine once read them in two and lost events under load.
 */
export const visibleHorizonFunctionSql = `
create or replace function es_visible_horizon() returns bigint
language sql stable as $fn$
  select coalesce(
    min(x::text::bigint),
    pg_snapshot_xmax(pg_current_snapshot())::text::bigint
  )
  from pg_snapshot_xip(pg_current_snapshot()) as x
  where not exists (
    select 1 from pg_stat_get_activity(null) a
    where a.datid is distinct from (select d.oid from pg_database d where d.datname = current_database())
      and a.backend_xid is not null
      -- backend_xid is the 32-bit id; the snapshot's are 64-bit (epoch and id)
      and a.backend_xid::text::bigint = x::text::bigint % 4294967296
  )
$fn$;
`;
