import { Hono } from 'hono';
import { sql } from 'kysely';
import type { ProjectionStatus } from '../../../projections/engine/projection-runner.ts';
import { describeError } from '../../../projections/engine/engine.ts';
import { isTransientDatabaseError } from '../../../projections/transient-error.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';

/** Longer than this, the database counts as unreachable for a health check (a load balancer will not wait longer). */
const PROBE_TIMEOUT_MS = 2_000;

/** One reason /health answers 503, named so an operator (or a dashboard) knows where to look. */
export interface HealthProblem {
  readonly component: 'database' | 'listen' | 'projection';
  /** The LISTEN channel or the projection; absent for the database. */
  readonly name?: string;
  readonly reason: 'unreachable' | 'lost' | 'poisoned' | 'lagging' | 'stuck';
  readonly detail: string;
}

type ProjectionState = 'ok' | 'catching_up' | 'stuck' | 'lagging' | 'poisoned';

/**
 * `GET /health`: 200 when the instance can serve, 503 naming every problem when it cannot or should not be trusted:
 * the database is unreachable; a LISTEN connection is lost (projections and /realtime would fall back to slow
 * polling); a read model has poisoned events (it lacks data), is HEALTH_MAX_LAG_EVENTS or more events behind
 * (lagging), or has not applied an event recorded HEALTH_MAX_LAG_SECONDS ago (stuck). A read model a few events
 * behind is normal under load: 200 with status `catching_up`. Ages are measured on the database's clock, the one
 * that stamped the events.
 */
export function healthRoutes(deps: Pick<AppDeps, 'database' | 'projections' | 'config'>) {
  const { database, projections, config } = deps;
  return new Hono<AppEnv>().get('/health', async (c) => {
    const started = performance.now();
    let statuses: ProjectionStatus[];
    let databaseNow: Date;
    let latencyMs: number | undefined;
    try {
      databaseNow = await probe(database.db);
      latencyMs = Math.round(performance.now() - started);
      statuses = await projections.status(config.HEALTH_MAX_LAG_EVENTS);
    } catch (error) {
      // The probe failing means unreachable; a later failure only when it is a connection fault.
      if (latencyMs !== undefined && !isTransientDatabaseError(error)) throw error;
      const problem: HealthProblem = { component: 'database', reason: 'unreachable', detail: describeError(error) };
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ status: 'unavailable', problems: [problem], database: { kind: database.kind, ok: false } }, 503);
    }

    const problems: HealthProblem[] = [];
    const listen = database.listenStatus();
    for (const channel of listen.filter((l) => !l.connected)) {
      problems.push({ component: 'listen', name: channel.channel, reason: 'lost', detail: 'reconnecting' });
    }
    const projectionsJson = statuses.map((p) => {
      const behindSeconds = p.oldestPendingAt
        ? Math.max(0, Math.floor((databaseNow.getTime() - p.oldestPendingAt.getTime()) / 1000))
        : 0;
      const found: HealthProblem[] = [];
      if (p.poisoned > 0) {
        found.push({
          component: 'projection',
          name: p.name,
          reason: 'poisoned',
          detail: `${p.poisoned} poisoned event(s)`,
        });
      }
      if (p.lagCapped) {
        found.push({ component: 'projection', name: p.name, reason: 'lagging', detail: `${p.lag}+ events behind` });
      }
      if (p.lag > 0 && behindSeconds >= config.HEALTH_MAX_LAG_SECONDS) {
        found.push({
          component: 'projection',
          name: p.name,
          reason: 'stuck',
          detail: `oldest pending event ${behindSeconds} s old`,
        });
      }
      problems.push(...found);
      const state = (found[0]?.reason as ProjectionState | undefined) ?? (p.lag > 0 ? 'catching_up' : 'ok');
      return {
        name: p.name,
        state,
        position: p.globalPosition,
        lag: p.lagCapped ? `${p.lag}+` : p.lag,
        behind_seconds: behindSeconds,
        poisoned: p.poisoned,
        updated_at: p.updatedAt?.toISOString() ?? null,
      };
    });

    const status =
      problems.length > 0 ? 'degraded' : projectionsJson.some((p) => p.state !== 'ok') ? 'catching_up' : 'ok';
    return c.json(
      {
        status,
        problems,
        database: { kind: database.kind, ok: true, latency_ms: latencyMs },
        listen: listen.map((l) => ({ channel: l.channel, connected: l.connected, reconnects: l.reconnects })),
        projections: projectionsJson,
      },
      problems.length > 0 ? 503 : 200,
    );
  });
}

/** The database's clock, read with a deadline: a hung connection counts as unreachable. */
async function probe(db: AppDeps['database']['db']): Promise<Date> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    const { rows } = await Promise.race([sql<{ now: Date | string }>`SELECT now() AS now`.execute(db), timeout]);
    return new Date(rows[0]!.now);
  } finally {
    clearTimeout(timer);
  }
}
