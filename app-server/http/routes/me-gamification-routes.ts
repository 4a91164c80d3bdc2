import { Hono } from 'hono';
import { Temporal } from 'temporal-polyfill';
import { streakAsOf } from '../../../domain/gamification/streaks.ts';
import { weekStartOf } from '../../../domain/shared/week.ts';
import type { GamificationTables } from '../../../projections/gamification/tables.ts';
import { requireUser } from '../../auth/guard.ts';
import type { AuthTables } from '../../auth/tables.ts';
import { DEFAULT_TIME_ZONE } from '../../process/awards/award-context.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { NoQuery, XpHistoryQuery } from '../openapi/gamification-schemas.ts';
import { parseOr400 } from '../openapi/parse.ts';
import { levelInfo } from './me-level.ts';

/** The user's streak, XP history and level: GET /me/streak, /me/xp-history, /me/xp. */
export function meGamificationRoutes(deps: AppDeps) {
  const db = deps.database.db.withTables<GamificationTables & Pick<AuthTables, 'users'>>();
  const guard = requireUser(deps.auth);

  return new Hono<AppEnv>()
    .get('/me/streak', guard, async (c) => {
      parseOr400(NoQuery, c.req.query());
      const userId = c.get('userId');
      const [row, user] = await Promise.all([
        db.selectFrom('user_streaks').selectAll().where('user_id', '=', userId).executeTakeFirst(),
        db.selectFrom('users').select('timezone').where('id', '=', userId).executeTakeFirst(),
      ]);
      const stored = {
        current: row?.current_streak ?? 0,
        longest: row?.longest_streak ?? 0,
        lastCompletedWeek: row?.last_completed_week ?? null,
      };
      // The stored streak is as of its last settled week; a whole week without a completed goal ends it.
      const thisWeek = weekStartOf(
        Temporal.Instant.fromEpochMilliseconds(deps.clock.now().getTime()),
        user?.timezone ?? DEFAULT_TIME_ZONE,
      );
      const streak = streakAsOf(stored, thisWeek);
      return c.json({
        success: true as const,
        data: {
          user_id: userId,
          current_streak: streak.current,
          longest_streak: streak.longest,
          last_completed_week: streak.lastCompletedWeek,
        },
      });
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
