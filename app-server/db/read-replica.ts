import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { parseWalPosition, type WalPosition } from '../../domain/shared/wal-position.ts';
import { FreshRead } from '../auth/fresh-read.ts';

/*
 * Reads on a streaming replica (READ_DATABASE_URL), writes and everything else on the primary.
 *
 * One mechanism decides where a query goes: the request's scope. `readsOnReplica(work)` marks an async scope (the HTTP
 * layer opens one around a pure read, read-routing.ts); the read handle `readDb` takes its connections from the
 * replica's pool inside such a scope and from the primary's everywhere else. So a write, a command, a projection, the
 * auth service's session checks (a sign-out must be refused at once, never after the replica replays it) and the
 * request limits never reach the replica: they use the primary handle, or run outside a replica scope.
 *
 * Read-your-writes across the two: a write's answer carries the primary's WAL position after it (`x-read-position`,
 * pg_current_wal_flush_lsn: every commit acknowledged before it is at or below it); a read that sends it back
 * (`x-read-after`) is served by the replica only once the replica has replayed that far, else by the primary. That
 * holds for what the write waited for (its runs, its goal's progress); the read models the write did not wait for are
 * as late on the primary as they may be on the replica.
 */

const scope = new AsyncLocalStorage<'replica'>();

/** Runs `work` with its reads on the replica (inside `readDb`); outside such a scope every query goes to the primary. */
export function readsOnReplica<T>(work: () => Promise<T>): Promise<T> {
  return scope.run('replica', work);
}

export interface ReadReplica {
  /** The primary's WAL position after everything committed so far (for a write's answer). */
  primaryPosition(): Promise<WalPosition>;
  /** Whether the replica has replayed at least `position` (read afresh when the last known replay is behind it). */
  hasReplayed(position: WalPosition): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The read handle and the replica's positions over two pools. `readDb` is a kysely over a pool that picks the
 * replica's or the primary's pool per connection, by the scope above (kysely asks its pool for a connection per query
 * or transaction, and releases it to the client's own pool).
 */
export function replicaRouting(primary: pg.Pool, replica: pg.Pool): { readDb: Kysely<object>; replica: ReadReplica } {
  const routingPool = {
    connect: () => (scope.getStore() === 'replica' ? replica.connect() : primary.connect()),
    // kysely's destroy() ends its pool; the database's close() ends both pools itself.
    end: async () => {},
  } as unknown as pg.Pool;
  const readDb = new Kysely<object>({ dialect: new PostgresDialect({ pool: routingPool }) });
  const primaryDb = new Kysely<object>({ dialect: new PostgresDialect({ pool: primary }) });
  const replicaDb = new Kysely<object>({ dialect: new PostgresDialect({ pool: replica }) });

  let replayed: WalPosition = 0n;
  // Concurrent reads that need a newer replay share one query (FreshRead: never older than the call).
  const replay = new FreshRead(async () => {
    const { rows } = await sql<{ lsn: string | null }>`SELECT pg_last_wal_replay_lsn()::text AS lsn`.execute(replicaDb);
    const lsn = rows[0]?.lsn ? parseWalPosition(rows[0].lsn) : null;
    if (lsn !== null && lsn > replayed) replayed = lsn;
    return replayed;
  });
  return {
    readDb,
    replica: {
      async primaryPosition() {
        const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_flush_lsn()::text AS lsn`.execute(primaryDb);
        return parseWalPosition(rows[0]!.lsn)!;
      },
      async hasReplayed(position) {
        if (replayed >= position) return true;
        return (await replay.get()) >= position;
      },
      async close() {
        await readDb.destroy();
      },
    },
  };
}
