import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import { withGenericPlans } from '../../app-server/db/generic-plans.ts';

/**
 * The group-scoped reads run in `withGenericPlans` (app-server/db/generic-plans.ts): their statements use generic
 * plans, the setting ends with the transaction (the pooled connection goes back with the default), and the
 * transaction is read-only, so the helper cannot become a way to write with unusual settings.
 */
const targets: [string, string | undefined][] = [['pglite', undefined]];
if (process.env.DATABASE_URL) targets.push(['postgres', process.env.DATABASE_URL]);

const planCacheMode = async (db: Database['db']) =>
  (await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(db)).rows[0]!.plan_cache_mode;

describe.each(targets)('withGenericPlans on %s', (_name, url) => {
  let database: Database;
  beforeAll(async () => {
    // One connection: what the helper leaves behind is what the next request on that connection gets.
    database = await openDatabase({ databaseUrl: url, poolSize: 1 });
    await sql`CREATE TABLE IF NOT EXISTS generic_plan_probe (id int PRIMARY KEY)`.execute(database.db);
  });
  afterAll(async () => {
    await sql`DROP TABLE IF EXISTS generic_plan_probe`.execute(database.db);
    await database.close();
  });

  it('plans generically inside and leaves the connection with the default afterwards', async () => {
    expect(await planCacheMode(database.db)).toBe('auto');
    expect(await withGenericPlans(database.db, planCacheMode)).toBe('force_generic_plan');
    expect(await planCacheMode(database.db)).toBe('auto');
  });

  it('resets the setting when the work throws, and passes the error on', async () => {
    const failure = new Error('Group not found');
    await expect(
      withGenericPlans(database.db, async (tx) => {
        expect(await planCacheMode(tx)).toBe('force_generic_plan');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await planCacheMode(database.db)).toBe('auto');
  });

  it('refuses writes', async () => {
    await expect(
      withGenericPlans(database.db, (tx) => sql`INSERT INTO generic_plan_probe (id) VALUES (1)`.execute(tx)),
    ).rejects.toThrow(/read-only/);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM generic_plan_probe`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  });
});
