import { type Kysely, sql } from 'kysely';
import pg from 'pg';

/** What the bench needs to know about a seeded database: who the users are and which groups they form. */
export interface BenchFixture {
  readonly users: { index: number; id: string; email: string; timeZone: string }[];
  readonly groups: { id: string; members: string[] }[];
}

/**
 * Kept inside the seeded database (one row of a bench-only table), so a cached template carries its own
 * description and a clone needs nothing else. The product never reads this table.
 */
export async function writeFixture(db: Kysely<object>, fixture: BenchFixture): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS bench_fixture (id int PRIMARY KEY, fixture jsonb NOT NULL)`.execute(db);
  await sql`INSERT INTO bench_fixture (id, fixture) VALUES (1, ${JSON.stringify(fixture)}::jsonb)
    ON CONFLICT (id) DO UPDATE SET fixture = excluded.fixture`.execute(db);
}

/** The fixture of the seeded database at `databaseUrl`, with the number of events in its log. */
export async function readFixtureAt(databaseUrl: string): Promise<BenchFixture & { events: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const fixture = (await client.query<{ fixture: BenchFixture }>('SELECT fixture FROM bench_fixture WHERE id = 1'))
      .rows[0];
    if (!fixture) throw new Error('not a seeded bench database (no bench_fixture row)');
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events');
    return { ...fixture.fixture, events: rows[0]!.n };
  } finally {
    await client.end();
  }
}
