import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { pushRegistrationSchema } from '../../../domain/validation/notifications.ts';
import { inAppOnlyPushSender } from '../../adapters/push/push-sender.ts';
import { requireUser } from '../../auth/guard.ts';
import { deliverNotification } from '../../commands/notifications/deliver.ts';
import { loadReminderInputs } from '../../process/reminders/reminder-inputs.ts';
import { planReminders } from '../../process/reminders/reminder-plan.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { parseWith, readJson } from './goals-input.ts';

type NotificationRow = {
  id: string;
  user_id: string;
  type: string;
  title: string;
  message: string;
  data: Record<string, string>;
  delivered_at: Date;
  push_status: string;
};

/** §3 Notification: payload carries what the tap needs (§2 routes by type). */
const notificationJson = (r: NotificationRow) => ({
  id: r.id,
  user_id: r.user_id,
  type: r.type,
  delivered_at: new Date(r.delivered_at).toISOString(),
  payload: { title: r.title, message: r.message, type: r.type, ...r.data },
  push_status: r.push_status,
});

const TYPE_ERROR = 'Type must be upcoming_goal, midweek_update or ending_soon';
const testBody = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(100, 'Title must be at most 100 characters'),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(500, 'Message must be at most 500 characters'),
  type: z.enum(['upcoming_goal', 'midweek_update', 'ending_soon'], { error: TYPE_ERROR }),
});
// The shared schema, with the same message when the token is missing altogether rather than zod's default.
const registerBody = pushRegistrationSchema.extend({
  token: z.string({ error: 'A push token is required' }).trim().min(1, 'A push token is required').max(4096),
});
const unregisterBody = z.object({ token: z.string().trim().min(1, 'A push token is required').optional() });
const afterQuery = z.object({ after: z.iso.datetime({ offset: true, error: 'after must be an ISO date-time' }).optional() });
const historyQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(100, 'limit must be a whole number from 1 to 100')
    .default(20),
});

/** Push registration and the caller's notifications (§7): scheduled reminders, history, polling and a test send. */
export function notificationsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const push = deps.push ?? inAppOnlyPushSender;
  return new Hono<AppEnv>()
    .use('/notifications', guard)
    .use('/notifications/*', guard)
    .post('/notifications/register', async (c) => {
      const { token, platform } = parseWith(registerBody, await readJson(c));
      const now = deps.clock.now();
      // A token belongs to one device; if it signed in as someone else, the device now notifies the new user.
      await sql`
        INSERT INTO push_tokens (token, user_id, platform, created_at, updated_at)
        VALUES (${token}, ${c.var.userId}, ${platform}, ${now}, ${now})
        ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform,
          updated_at = excluded.updated_at`.execute(db);
      return c.json({ success: true as const, data: { token, platform } }, 201);
    })
    .delete('/notifications/unregister', async (c) => {
      const { token } = parseWith(unregisterBody, await readJson(c));
      const result = await sql`
        DELETE FROM push_tokens WHERE user_id = ${c.var.userId} ${token ? sql`AND token = ${token}` : sql``}`.execute(db);
      return c.json({ success: true as const, data: { removed: Number(result.numAffectedRows ?? 0) } });
    })
    .get('/notifications/scheduled', async (c) => {
      const now = deps.clock.now();
      const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
      const [input] = await loadReminderInputs(db, now, c.var.userId);
      const plans = input ? planReminders(input, instant).filter((p) => Temporal.Instant.compare(p.dueAt, instant) > 0) : [];
      const { rows: sent } = await sql<{ id: string }>`
        SELECT id FROM notifications WHERE id = ANY(${plans.map((p) => p.id)}::text[])`.execute(db);
      const done = new Set(sent.map((r) => r.id));
      const data = plans
        .filter((p) => !done.has(p.id))
        .sort((a, b) => Temporal.Instant.compare(a.dueAt, b.dueAt))
        .map((p) => ({
          id: p.id,
          type: p.type,
          scheduled_for: new Date(p.dueAt.epochMilliseconds).toISOString(),
          payload: { title: p.title, message: p.message, type: p.type, ...p.data },
        }));
      return c.json({ success: true as const, data });
    })
    .get('/notifications/history', async (c) => {
      const { limit } = parseWith(historyQuery, c.req.query());
      const { rows } = await sql<NotificationRow>`
        SELECT * FROM notifications WHERE user_id = ${c.var.userId}
        ORDER BY delivered_at DESC, id DESC LIMIT ${limit}`.execute(db);
      return c.json({ success: true as const, data: rows.map(notificationJson) });
    })
    .get('/notifications', async (c) => {
      const { after } = parseWith(afterQuery, c.req.query());
      // Polled every 30 s (§9) with the last delivered_at seen: only newer rows, oldest first.
      const { rows } = await sql<NotificationRow>`
        SELECT * FROM notifications WHERE user_id = ${c.var.userId}
          ${after ? sql`AND delivered_at > ${new Date(after)}` : sql``}
        ORDER BY delivered_at, id LIMIT 100`.execute(db);
      return c.json({ success: true as const, data: rows.map(notificationJson) });
    })
    .post('/notifications/test', async (c) => {
      const body = parseWith(testBody, await readJson(c));
      const id = `test:${randomUUID()}`;
      const url = body.type === 'upcoming_goal' ? '/goals' : body.type === 'midweek_update' ? '/profile?tab=stakes' : '/groups';
      await deliverNotification(
        db,
        push,
        { id, userId: c.var.userId, type: body.type, title: body.title, message: body.message, data: { url } },
        deps.clock.now(),
      );
      const { rows } = await sql<NotificationRow>`SELECT * FROM notifications WHERE id = ${id}`.execute(db);
      return c.json({ success: true as const, data: rows.map(notificationJson)[0] }, 201);
    });
}
