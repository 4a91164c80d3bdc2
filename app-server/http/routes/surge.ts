import { z } from 'zod';
import { Hono } from 'hono';
import { type Surge, secondsUntilEnd, surgeStatusAt } from '../../../domain/surge/state.ts';
import type { SurgeRow, SurgeTables } from '../../../projections/surge/surge-projector.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { limitQuery, noQuery, parseRequest } from '../request.ts';
import { operatorSurgeRoutes } from './operator-surges.ts';

/** Query of GET /surge/history. */
export const SurgeHistoryQuery = z.strictObject({ limit: limitQuery(100, 20) });

function toSurge(row: SurgeRow): Surge {
  return {
    surgeId: row.surge_id,
    xpMultiplier: Number(row.xp_multiplier),
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
    canceledAt: row.canceled_at === null ? null : new Date(row.canceled_at).toISOString(),
  };
}

/** §3 Surge event as the banner reads it; status and countdown come from the clock, never from storage. */
function present(surge: Surge, now: string) {
  return {
    id: surge.surgeId,
    status: surgeStatusAt(surge, now),
    xp_multiplier: surge.xpMultiplier,
    start_time: surge.startsAt,
    end_time: surge.endsAt,
    seconds_remaining: secondsUntilEnd(surge, now),
  };
}

/**
 * Surges: GET /surge/active (the app refetches it every 60 s), /surge/upcoming, /surge/history. Public: the
 * schedule is the same for everyone and holds nothing personal. Beside them, the operator's side of the schedule
 * (/api/operator/surges, behind OPERATOR_TOKEN: operator-surges.ts).
 */
export function surgeRoutes(deps: AppDeps) {
  const db = deps.database.db.withTables<SurgeTables>();
  const nowIso = () => deps.clock.now().toISOString();

  return new Hono<AppEnv>()
    .get('/surge/active', async (c) => {
      parseRequest(noQuery, c.req.query());
      const now = nowIso();
      const row = await db
        .selectFrom('surges')
        .selectAll()
        .where('canceled_at', 'is', null)
        .where('starts_at', '<=', new Date(now))
        .where('ends_at', '>', new Date(now))
        .orderBy('starts_at')
        .executeTakeFirst();
      return c.json({ success: true as const, data: row ? present(toSurge(row), now) : null });
    })
    .get('/surge/upcoming', async (c) => {
      parseRequest(noQuery, c.req.query());
      const now = nowIso();
      const rows = await db
        .selectFrom('surges')
        .selectAll()
        .where('canceled_at', 'is', null)
        .where('starts_at', '>', new Date(now))
        .orderBy('starts_at')
        .execute();
      return c.json({ success: true as const, data: rows.map((r) => present(toSurge(r), now)) });
    })
    .get('/surge/history', async (c) => {
      const { limit } = parseRequest(SurgeHistoryQuery, c.req.query());
      const now = nowIso();
      // Ended or canceled, newest first.
      const rows = await db
        .selectFrom('surges')
        .selectAll()
        .where((eb) => eb.or([eb('canceled_at', 'is not', null), eb('ends_at', '<=', new Date(now))]))
        .orderBy('starts_at', 'desc')
        .orderBy('surge_id')
        .limit(limit)
        .execute();
      return c.json({ success: true as const, data: rows.map((r) => present(toSurge(r), now)) });
    })
    .route('/', operatorSurgeRoutes(deps));
}
