import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../app-server/db/database.ts';

/**
 * Every connection the server opens to PostgreSQL runs without JIT compilation. The batched goal-progress query is
 * estimated far above its real cost once the tables are large (jsonb_to_recordset is guessed at 100 rows), and with
 * JIT on PostgreSQL compiled it on every call: 256 ms for a 0.1 ms query at 1M events.
 */
const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];

describe.each(postgres)('PostgreSQL session settings (%s)', (url) => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: url, poolSize: 3 });
  });
  afterAll(() => database.close());

  it('turns JIT off on pooled connections', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        database.db
          .transaction()
          .execute(async (tx) => (await sql<{ jit: string }>`SHOW jit`.execute(tx)).rows[0]!.jit),
      ),
    );
    expect(answers).toEqual(['off', 'off', 'off']);
  });

  it('plans a query estimated above jit_above_cost without JIT', async () => {
    // Not run, only planned: its estimate (millions) is far above jit_above_cost (100,000 by default).
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT count(*) FROM generate_series(1, 100000) a CROSS JOIN generate_series(1, 1000) b WHERE a + b > 5`.execute(
      database.db,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const cost = Number(/cost=[\d.]+\.\.([\d.]+)/.exec(plan)?.[1]);
    expect(cost).toBeGreaterThan(1_000_000);
    expect(plan).not.toContain('JIT');
  });
});
