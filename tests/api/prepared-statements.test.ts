import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import { prepareStatements } from '../../app-server/db/prepared-statements.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';

/**
 * The server's PostgreSQL connections prepare each statement once and reuse it (app-server/db/prepared-statements.ts),
 * so reads skip parsing and planning. These tests hold the reuse, the bound per connection, and the one case where a
 * prepared statement goes stale: a read model rebuilt with other columns (the rebuild's swap), read right after.
 */
const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];

describe.each(postgres)('prepared statements (%s)', (baseUrl) => {
  let scratch: { url: string; drop(): Promise<void> };
  let database: Database;
  beforeAll(async () => {
    scratch = await createScratchDatabase(baseUrl, 'ss_prepared');
    // One connection, so every statement below meets the ones before it.
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  const prepared = async () =>
    (
      await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE NOT from_sql`.execute(
        database.db,
      )
    ).rows.map((r) => r.statement);

  it('prepares a statement once and reuses it, parameters and all', async () => {
    const answers = [];
    for (const n of [1, 2, 3])
      answers.push((await sql<{ n: number }>`SELECT ${n}::int + 1 AS n`.execute(database.db)).rows[0]!.n);
    expect(answers).toEqual([2, 3, 4]);
    const statements = await prepared();
    expect(statements.filter((s) => s === 'SELECT $1::int + 1 AS n')).toHaveLength(1);
  });

  it('reads a table rebuilt with other columns right after the swap, in and out of transactions', async () => {
    const db = database.db;
    await sql`CREATE TABLE swapped (id int PRIMARY KEY, a text)`.execute(db);
    await sql`INSERT INTO swapped VALUES (1, 'old')`.execute(db);
    const read = () => sql<Record<string, unknown>>`SELECT * FROM swapped WHERE id = ${1}`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1, a: 'old' }]);
    // What a rebuild's swap does: the fresh table, with another column, takes the live name.
    await sql`CREATE TABLE swapped_fresh (id int PRIMARY KEY, a text, b text)`.execute(db);
    await sql`INSERT INTO swapped_fresh VALUES (1, 'new', 'added')`.execute(db);
    await sql`DROP TABLE swapped`.execute(db);
    await sql`ALTER TABLE swapped_fresh RENAME TO swapped`.execute(db);
    // Outside a transaction the stale statement is prepared again and the read answers at once.
    expect((await read()).rows).toEqual([{ id: 1, a: 'new', b: 'added' }]);
    expect((await read()).rows).toEqual([{ id: 1, a: 'new', b: 'added' }]);

    await sql`ALTER TABLE swapped ADD COLUMN c text`.execute(db);
    // Inside one, the error stands (the transaction is aborted) and the caller's retry succeeds.
    const inTransaction = () =>
      db.transaction().execute(async (tx) => (await sql`SELECT * FROM swapped WHERE id = ${1}`.execute(tx)).rows);
    await expect(inTransaction()).rejects.toThrow(/cached plan must not change result type/);
    expect(await inTransaction()).toEqual([{ id: 1, a: 'new', b: 'added', c: null }]);
  });

  it('writes a value only the new type of a widened column holds, right after the migration', async () => {
    const db = database.db;
    await sql`CREATE TABLE widened (n int)`.execute(db);
    const insert = (n: number) => sql`INSERT INTO widened (n) VALUES (${n})`.execute(db);
    await insert(1);
    // Prepared with an int parameter; the migration widens the column to bigint.
    await sql`ALTER TABLE widened ALTER COLUMN n TYPE bigint`.execute(db);
    await insert(2 ** 40);
    await insert(2 ** 41);
    const inTransaction = (n: number) =>
      db.transaction().execute((tx) => sql`INSERT INTO widened (n) VALUES (${n}) RETURNING n`.execute(tx));
    await inTransaction(3);
    await sql`ALTER TABLE widened ALTER COLUMN n TYPE numeric`.execute(db);
    await expect(inTransaction(2 ** 62)).rejects.toThrow();
    await inTransaction(2 ** 62);
    const { rows } = await sql<{ n: string }>`SELECT n::text FROM widened ORDER BY widened.n`.execute(db);
    expect(rows.map((r) => r.n)).toEqual(['1', '3', String(2 ** 40), String(2 ** 41), String(2 ** 62)]);
  });

  it('keeps at most its bound of statements per connection; later ones run unnamed', async () => {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      prepareStatements(client, { perConnection: 2 });
      for (const n of [1, 2, 3, 4]) {
        const { rows } = await client.query(`SELECT $1::int * ${n} AS n`, [10]);
        expect(rows[0].n).toBe(10 * n);
      }
      const { rows } = await client.query(
        'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE NOT from_sql',
        [],
      );
      expect(rows[0].n).toBe(2);
    } finally {
      await client.end();
    }
  });

  it('can be turned off', async () => {
    const unprepared = await openDatabase({ databaseUrl: scratch.url, poolSize: 1, preparedStatements: false });
    try {
      await sql`SELECT ${5}::int AS five`.execute(unprepared.db);
      const { rows } = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE NOT from_sql`.execute(unprepared.db);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await unprepared.close();
    }
  });
});
