import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_LOCK_KEY } from '../../app-server/db/schema-lock.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/**
 * A rebuild asked from outside (the operator's `npm run projections:rebuild` while API replicas and workers run)
 * recreates read-model tables, as a process starting up does: it must wait for the schema lock that start-up's
 * migrations and table creation hold (app-server/db/schema-lock.ts), or two `CREATE TABLE` of one table collide.
 * PostgreSQL only: PGlite is one process and one session.
 */
const postgres = process.env.DATABASE_URL ? ['postgres' as const] : [];

describe.each(postgres)('a rebuild waits for the schema lock another process holds (%s)', (target) => {
  let rt: TestRuntime;
  let other: pg.Client;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { workers: false });
    // Another process: the lock taken on its own session, as a replica starting up would.
    other = new pg.Client({ connectionString: String(rt.config.DATABASE_URL) });
    await other.connect();
  }, 60_000);
  afterAll(async () => {
    await other?.end();
    await rt?.close();
  });

  for (const how of ['rebuild', 'rebuildAll'] as const) {
    it(`${how} starts only once the lock is released, and then completes`, async () => {
      await other.query('SELECT pg_advisory_lock($1::bigint)', [SCHEMA_LOCK_KEY]);
      let done = false;
      const rebuilt = (how === 'rebuild' ? rt.projections.rebuild('runs') : rt.projections.rebuildAll(['runs'])).then(
        (result) => {
          done = true;
          return result;
        },
      );
      // Held for a while: the rebuild is still waiting (a rebuild of an empty log takes milliseconds).
      await new Promise((r) => setTimeout(r, 1_500));
      expect(done).toBe(false);
      const waiting = await other.query(
        `SELECT count(*)::int AS n FROM pg_locks
         WHERE locktype = 'advisory' AND NOT granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(waiting.rows[0].n).toBeGreaterThanOrEqual(1);
      await other.query('SELECT pg_advisory_unlock($1::bigint)', [SCHEMA_LOCK_KEY]);
      await rebuilt;
      expect(done).toBe(true);
    });
  }
});
