import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import { sqlRecords } from '../../projections/sql-records.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

/*
 * A batch of rows sent as JSON and joined to a table (an UPDATE … FROM, a DELETE … USING) must be planned as index
 * probes, one per row, not as a hash join over the whole table: PostgreSQL guesses 100 rows for jsonb_to_recordset,
 * and the inline goal-progress UPDATE of every POST /runs read all 8,000 goals of the bench log to change one.
 * projections/sql-records.ts tells the planner the batch's size; this file proves that it does, on PGlite and on
 * PostgreSQL, and that no product statement reads a JSON batch any other way.
 */

const targets = process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);
const root = resolve(import.meta.dirname, '../..');

describe.each(targets)('sqlRecords on %s', (target) => {
  let database: Database;
  let drop = async () => {};
  beforeAll(async () => {
    if (target === 'postgres') {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'ss_records');
      drop = scratch.drop;
      database = await openDatabase({ databaseUrl: scratch.url });
    } else {
      database = await openMemoryDatabase();
    }
    await sql`CREATE TABLE batch_target (id text PRIMARY KEY, progress double precision NOT NULL)`.execute(database.db);
    await sql`
      INSERT INTO batch_target SELECT 'g' || i, 0 FROM generate_series(1, 8000) AS i`.execute(database.db);
    await sql`ANALYZE batch_target`.execute(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });

  const plan = async (statement: ReturnType<typeof sql>) => {
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`.execute(database.db);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };
  const changed = [{ id: 'g42', progress: 5.5 }];

  it('an UPDATE of one row of 8,000 probes the index instead of scanning the table', async () => {
    const update = sql`
      UPDATE batch_target AS t SET progress = c.progress
      FROM ${sqlRecords(changed, 'id text, progress double precision')} AS c WHERE t.id = c.id`;
    const shown = await plan(update);
    expect(shown).toMatch(/Index Scan using batch_target_pkey/);
    expect(shown).not.toMatch(/Seq Scan on batch_target/);
    // The same statement over a bare jsonb_to_recordset: why the helper exists.
    const bare = await plan(sql`
      UPDATE batch_target AS t SET progress = c.progress
      FROM jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) AS c(id text, progress double precision)
      WHERE t.id = c.id`);
    expect(bare).toMatch(/Seq Scan on batch_target/);
    await update.execute(database.db);
    const { rows } = await sql<{ id: string; progress: number }>`
      SELECT id, progress FROM batch_target WHERE progress <> 0`.execute(database.db);
    expect(rows).toEqual([{ id: 'g42', progress: 5.5 }]);
  });

  it('reads every row it is given, in order, with its types', async () => {
    const rows = [
      { ord: 1, key: 'b', at: '2026-03-29T01:30:00.000Z', data: { x: [1, 2] } },
      { ord: 2, key: null, at: null, data: null },
      { ord: 3, key: "it's", at: '2026-10-25T00:59:59.000Z', data: { y: 'z' } },
    ];
    const { rows: read } = await sql<{ ord: number; key: string | null; at: Date | null; data: unknown }>`
      SELECT * FROM ${sqlRecords(rows, 'ord integer, key text, at timestamptz, data jsonb')} AS r ORDER BY r.ord`.execute(
      database.db,
    );
    expect(read.map((r) => ({ ...r, at: r.at === null ? null : new Date(r.at).toISOString() }))).toEqual(rows);
    const { rows: none } = await sql`SELECT * FROM ${sqlRecords([], 'id text')} AS r`.execute(database.db);
    expect(none).toEqual([]);
  });
});

/** Every product source file (tests left out). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('every JSON batch goes through sqlRecords', () => {
  it('no product statement calls jsonb_to_recordset but projections/sql-records.ts', () => {
    const callers = ['app-server', 'projections', 'domain']
      .flatMap((dir) => sourceFiles(join(root, dir)))
      .filter((file) => /jsonb_to_recordset\s*\(/.test(readFileSync(file, 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')))
      .map((file) => relative(root, file));
    expect(callers).toEqual(['projections/sql-records.ts']);
  });
});
