import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './database.ts';

/**
 * The one PostgreSQL advisory lock under which every process changes the schema: the migrations (every module's
 * tables, the event store's, the checkpoints', auth's, the integrations'…) and the read models' tables that the
 * projection runner creates or rebuilds at start-up. docker-compose.yml starts API replicas and workers at the same
 * moment; two `CREATE TABLE IF NOT EXISTS` of one table at once fail in PostgreSQL (`duplicate key value violates
 * unique constraint "pg_type_typname_nsp_index"`), so they must run one process at a time.
 *
 * One bigint key ("StrideSc"), in the single-key lock space: apart from the two-key stream and checkpoint locks, and
 * from kysely's own migration lock. PGlite is one session, where an advisory lock excludes nothing: the lock is
 * taken there too (it costs nothing) or skipped, and correctness there comes from the single session.
 */
export const SCHEMA_LOCK_KEY = '6004793221140276067';

/** Takes the schema lock for the rest of `tx` (released at its commit or rollback). Works on both engines. */
export async function lockSchemaInTransaction(tx: Transaction<object> | Kysely<object>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK_KEY}::bigint)`.execute(tx);
}

/**
 * Runs `work` while this process holds the schema lock, for work that spans several transactions (a read model's
 * rebuild): a session-level lock on a dedicated connection of the pool, released when `work` ends or throws (or when
 * that connection is lost). `work` must use other connections, and must not ask for the lock again. On PGlite (one
 * session, one process) `work` simply runs: holding its only connection would stall `work` itself.
 */
export async function withSchemaLock<T>(database: Pick<Database, 'kind' | 'db'>, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return work();
  return database.db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${SCHEMA_LOCK_KEY}::bigint)`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${SCHEMA_LOCK_KEY}::bigint)`.execute(connection);
    }
  });
}
