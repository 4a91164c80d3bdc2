import { type Kysely, sql } from 'kysely';

/**
 * Runs `work` in one read-only transaction whose statements use generic plans (`SET LOCAL plan_cache_mode`), for the
 * group-scoped reads (challenges, leaderboard, recap).
 *
 * Why: a prepared statement normally switches to its generic plan after five runs, but only when that plan is not
 * estimated dearer than the custom ones. The generic plan of `group_members.group_id = $1` expects the average group;
 * for groups smaller than average every custom plan is estimated cheaper, so PostgreSQL planned these statements
 * again on every call: on the 1M-event bench log, 7.7 ms of planning for 2.3 ms of running per challenges request
 * (docs/PERFORMANCE.md). Their generic plans are the same index nested loops for any group size. `SET LOCAL` ends with
 * the transaction, so the pooled connection goes back with the default, and one transaction replaces a transaction
 * per query. Read-only: nothing written with these settings.
 */
export function withGenericPlans<T>(db: Kysely<object>, work: (tx: Kysely<object>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    // Both settings in one round trip, local to the transaction (kysely's setAccessMode is not honoured on PGlite).
    await sql`SELECT set_config('transaction_read_only', 'on', true), set_config('plan_cache_mode', 'force_generic_plan', true)`.execute(
      tx,
    );
    return work(tx);
  });
}
