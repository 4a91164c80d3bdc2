import { Hono } from 'hono';
import type { GamificationTables } from '../../../projections/gamification/tables.ts';
import { requireUser } from '../../auth/guard.ts';
import type { AuthTables } from '../../auth/tables.ts';
import { DEFAULT_TIME_ZONE } from '../../process/awards/award-context.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { NoQuery, XpHistoryQuery } from '../openapi/gamification-schemas.ts';
import { parseOr400 } from '../openapi/parse.ts';
import { levelInfo, streakInfo } from './me-level.ts';

/** The user's streak, XP history and level: GET /me/streak, /me/xp-history, /me/xp. */
export function meGamificationRoutes(deps: AppDeps) {
  const db = deps.database.db.withTables<GamificationTables & Pick<AuthTables, 'users'>>();
  const guard = requireUser(deps.auth);

  return new Hono<AppEnv>()
    .get('/me/streak', guard, async (c) => {
      parseOr400(NoQuery, c.req.query());
      const userId = c.get('userId');
      const user = await db.selectFrom('users').select('timezone').where('id', '=', userId).executeTakeFirst();
      const streak = await streakInfo(deps.database.db, userId, user?.timezone ?? DEFAULT_TIME_ZONE, deps.clock.now());
      return c.json({ success: true as const, data: { user_id: userId, ...streak } });
    })
    .get('/me/xp-history', guard, async (c) => {
      const query = parseOr400(XpHistoryQuery, c.req.query());
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
        .where('user_id', '=', c.get('userId'));
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
      parseOr400(NoQuery, c.req.query());
      return c.json({ success: true as const, data: await levelInfo(deps.database.db, c.get('userId')) });
    });
}
