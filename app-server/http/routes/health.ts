import { sql } from 'kysely';
import { Hono } from 'hono';
import type { ProjectionRunner } from '../../../projections/runner/projection-runner.ts';
import type { Database } from '../../db/database.ts';
import type { AppEnv } from '../app-env.ts';

/** `GET /health`: is the database reachable, and how far behind the log is each read model. */
export function healthRoutes(deps: { database: Database; projections: ProjectionRunner }) {
  return new Hono<AppEnv>().get('/health', async (c) => {
    const started = performance.now();
    try {
      await sql`SELECT 1`.execute(deps.database.db);
    } catch {
      return c.json({ status: 'unavailable', database: { kind: deps.database.kind, ok: false } }, 503);
    }
    const databaseMs = Math.round(performance.now() - started);
    const projections = (await deps.projections.status(1000)).map((p) => ({
      name: p.name,
      position: p.globalPosition,
      lag: p.lagCapped ? `${p.lag}+` : p.lag,
      updated_at: p.updatedAt?.toISOString() ?? null,
    }));
    const lagging = projections.some((p) => typeof p.lag === 'string' || p.lag > 0);
    return c.json({
      status: lagging ? 'catching_up' : 'ok',
      database: { kind: deps.database.kind, ok: true, latency_ms: databaseMs },
      projections,
    });
  });
}
