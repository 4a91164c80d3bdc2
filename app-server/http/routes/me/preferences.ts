import { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { storableString } from '../../../../domain/validation/text.ts';
import { timeOfDaySchema } from '../../../../domain/validation/notifications.ts';
import { distanceUnitSchema } from '../../../../domain/validation/units.ts';
import { requireUser } from '../../middleware/require-user.ts';
import {
  readNotificationPreferences,
  readPreferences,
  writeNotificationPreferences,
  writePreferences,
} from '../../../commands/preferences/preference-store.ts';
import type { AppDeps } from '../../app.ts';
import type { AppEnv } from '../../app-env.ts';
import { HttpError } from '../../errors.ts';
import { parseRequest, readJson } from '../../request.ts';

const flag = (name: string) => z.boolean({ error: `${name} must be true or false` }).optional();
// 'HH:MM' from a time input is accepted and stored with seconds (§3).
const time = z
  .preprocess((v) => (typeof v === 'string' && /^\d\d:\d\d$/.test(v) ? `${v}:00` : v), timeOfDaySchema)
  .optional();

/** PUT /me/preferences: any subset; an unknown unit is stored as km (§5). */
const preferencesBody = z.object({
  distance_unit: distanceUnitSchema.optional(),
  default_charity_id: storableString({ error: 'Unknown charity' })
    .min(1, 'Unknown charity')
    .max(100)
    .nullable()
    .optional(),
  remember_charity: flag('remember_charity'),
});

/** PUT /me/notification-preferences: any subset of the three switches and three times. */
const notificationBody = z.object({
  upcoming_goal_enabled: flag('upcoming_goal_enabled'),
  midweek_update_enabled: flag('midweek_update_enabled'),
  ending_soon_enabled: flag('ending_soon_enabled'),
  upcoming_goal_time: time,
  midweek_update_time: time,
  ending_soon_time: time,
});

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Whether `id` is an active charity. The payments module owns the table; until it exists no id can be checked. */
async function isActiveCharity(db: Kysely<object>, id: string): Promise<boolean> {
  const { rows: exists } = await sql<{ t: string | null }>`SELECT to_regclass('charities')::text AS t`.execute(db);
  if (!exists[0]?.t) return false;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM charities WHERE id::text = ${id} AND is_active`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

/** The caller's own preferences (§3, §6): GET/PUT /me/preferences and /me/notification-preferences. */
export function myPreferencesRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  return new Hono<AppEnv>()
    .get('/me/preferences', guard, async (c) =>
      c.json({ success: true as const, data: await readPreferences(db, c.var.userId) }),
    )
    .put('/me/preferences', guard, async (c) => {
      const change = defined(parseRequest(preferencesBody, await readJson(c)));
      if (change.default_charity_id && !(await isActiveCharity(db, change.default_charity_id))) {
        throw new HttpError(400, 'Unknown charity');
      }
      const next = { ...(await readPreferences(db, c.var.userId)), ...change };
      await writePreferences(db, c.var.userId, next, deps.clock.now());
      return c.json({ success: true as const, data: next });
    })
    .get('/me/notification-preferences', guard, async (c) =>
      c.json({ success: true as const, data: await readNotificationPreferences(db, c.var.userId) }),
    )
    .put('/me/notification-preferences', guard, async (c) => {
      const change = defined(parseRequest(notificationBody, await readJson(c)));
      const next = { ...(await readNotificationPreferences(db, c.var.userId)), ...change };
      await writeNotificationPreferences(db, c.var.userId, next, deps.clock.now());
      return c.json({ success: true as const, data: next });
    });
}
