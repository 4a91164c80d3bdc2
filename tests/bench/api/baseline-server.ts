import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';

/**
 * The bench's baselines, started as their own process like the product: bare Hono on @hono/node-server answering a
 * small JSON (`GET /`), and the same plus one primary-key read through a `pg` pool of the product's size
 * (`GET /pk`: a user row by id, the ids read once at start). What the machine can do, measured in the same run.
 */
const port = Number(process.env.PORT);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});
const ids = (await pool.query<{ id: string }>('SELECT id FROM users ORDER BY id LIMIT 1000')).rows.map((r) => r.id);
let next = 0;

const app = new Hono()
  .get('/', (c) => c.json({ ok: true, service: 'stridestake-bench-baseline' }))
  .get('/pk', async (c) => {
    const id = ids[next++ % ids.length];
    const { rows } = await pool.query('SELECT id, display_name, timezone, level, total_xp FROM users WHERE id = $1', [
      id,
    ]);
    return c.json({ success: true, data: rows[0] ?? null });
  });

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
