import { z } from 'zod';
import { Hono } from 'hono';
import type { GamificationTables } from '../../../../projections/gamification/tables.ts';
import { requireUser } from '../../middleware/require-user.ts';
import type { AuthTables } from '../../../auth/tables.ts';
import { userTimeZone } from '../../../auth/user-time-zone.ts';
import type { AppDeps } from '../../app.ts';
import type { AppEnv } from '../../app-env.ts';
import { levelInfo, streakInfo } from '../../../../projections/gamification/level-queries.ts';
import { limitQuery, noQuery, parseRequest } from '../../request.ts';

// Run ids, comma-separated (the run history looks up XP per run, §7).
const csvIds = z
  .string()
  .max(10_000, { message: 'run_ids: too many ids' })
  .transform((s) =>
    s
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id.length > 0),
  )
  .pipe(
    z
      .array(z.string().max(200, { message: 'run_ids: an id is too long' }))
      .min(1, { message: 'run_ids: give at least one run id' })
      .max(100, { message: 'run_ids: at most 100 run ids' }),
  );

/** Query of GET /me/xp-history. */
export const XpHistoryQuery = z.strictObject({ run_ids: csvIds.optional(), limit: limitQuery(500, 100) });

/** The user's streak, XP history and level: GET /me/streak, /me/xp-history, /me/xp. */
export function myProgressRoutes(deps: AppDeps) {
  const db = deps.database.db.withTables<GamificationTables & Pick<AuthTables, 'users'>>();
  const guard = requireUser(deps.auth);

  return new Hono<AppEnv>()
    .get('/me/streak', guard, async (c) => {
      parseRequest(noQuery, c.req.query());
      const userId = c.var.userId;
      const timeZone = await userTimeZone(deps.database.db, userId);
      const streak = await streakInfo(deps.database.db, userId, timeZone, deps.clock.now());
      return c.json({ success: true as const, data: { user_id: userId, ...streak } });
    })
    .get('/me/xp-history', guard, async (c) => {
      const query = parseRequest(XpHistoryQuery, c.req.query());
      let select = db
        .selectFrom('xp_history')
        .select([
          'source_type',
          'source_id',
          'xp_amount',
          'base_xp',
          'surge_bonus',
          'xp_multiplier',
          'description',
          'created_at',
        ])
        .where('user_id', '=', c.var.userId);
      if (query.run_ids) select = select.where('source_type', '=', 'run').where('source_id', 'in', query.run_ids);
      const rows = await select.orderBy('global_position', 'desc').limit(query.limit).execute();
      return c.json({
        success: true as const,
        data: rows.map((r) => ({
          ...r,
          source_type: r.source_type as 'run' | 'goal' | 'streak' | 'badge',
          xp_multiplier: Number(r.xp_multiplier),
          created_at: new Date(r.created_at).toISOString(),
        })),
      });
    })
    .get('/me/xp', guard, async (c) => {
      parseRequest(noQuery, c.req.query());
      return c.json({ success: true as const, data: await levelInfo(deps.database.db, c.var.userId) });
    });
}
