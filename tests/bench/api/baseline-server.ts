import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';

/**
 * The bench's baselines, started as their own process like the product: bare Hono on @hono/node-server answering a
 * small JSON (`GET /`), and the same plus one primary-key read through a `pg` pool of the product's size
 * (`GET /pk`: a user row by id, the ids read once at start), and the same storing a POST /runs body with one insert
 * (`POST /runs`: the JSON parsed, one row into a table of its own, 201 with its id; issue 23's baseline for the write
 * row). What the machine can do, measured in the same run.
 */
const port = Number(process.env.PORT);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});
const ids = (await pool.query<{ id: string }>('SELECT id FROM users ORDER BY id LIMIT 1000')).rows.map((r) => r.id);
let next = 0;
await pool.query('CREATE TABLE IF NOT EXISTS bench_baseline_runs (id bigserial PRIMARY KEY, body jsonb NOT NULL)');

const app = new Hono()
  .get('/', (c) => c.json({ ok: true, service: 'stridestake-bench-baseline' }))
  .get('/pk', async (c) => {
    const id = ids[next++ % ids.length];
    const { rows } = await pool.query('SELECT id, display_name, timezone, level, total_xp FROM users WHERE id = $1', [
      id,
    ]);
    return c.json({ success: true, data: rows[0] ?? null });
  })
  .post('/runs', async (c) => {
    const body: unknown = await c.req.json();
    const { rows } = await pool.query<{ id: string }>(
      'INSERT INTO bench_baseline_runs (body) VALUES ($1) RETURNING id',
      [JSON.stringify(body)],
    );
    return c.json({ success: true, data: { id: rows[0]!.id } }, 201);
  });

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
