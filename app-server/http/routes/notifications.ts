import { Hono } from 'hono';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { pushRegistrationSchema } from '../../../domain/validation/notifications.ts';
import { isoInstant, storableString } from '../../../domain/validation/text.ts';
import { inAppOnlyPushSender } from '../../adapters/push/push-sender.ts';
import {
  isKnownPushService,
  isWebPushToken,
  parseWebPushSubscription,
} from '../../adapters/push/web-push-subscription.ts';
import { requireUser } from '../middleware/require-user.ts';
import { newAggregateId } from '../../commands/command-context.ts';
import { deliverNotification } from '../../commands/notifications/deliver.ts';
import { loadReminderInputs } from '../../process/reminders/reminder-inputs.ts';
import { planReminders } from '../../process/reminders/reminder-plan.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { keyedRequest, parseRequest, readJson } from '../request.ts';

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

/** A push token another account registered and has not unregistered. */
export const TOKEN_OF_ANOTHER_ACCOUNT =
  'This device receives notifications for another account. Sign out of that account on this device first.';

const TYPE_ERROR = 'Type must be upcoming_goal, midweek_update or ending_soon';
const testBody = z.object({
  title: storableString({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(100, 'Title must be at most 100 characters'),
  message: storableString({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(500, 'Message must be at most 500 characters'),
  type: z.enum(['upcoming_goal', 'midweek_update', 'ending_soon'], { error: TYPE_ERROR }),
});
// The shared schema, with the same message when the token is missing altogether rather than zod's default.
const registerBody = pushRegistrationSchema.extend({
  token: storableString({ error: 'A push token is required' }).trim().min(1, 'A push token is required').max(4096),
});
const unregisterBody = z.object({ token: storableString().trim().min(1, 'A push token is required').optional() });
/** GET /notifications's query (also its OpenAPI description). */
export const afterQuery = z.object({ after: isoInstant('after must be an ISO date-time').optional() });
/** GET /notifications/history's query. */
export const historyQuery = z.object({
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
    .get('/notifications/web-push-key', guard, (c) =>
      // The web app subscribes to Web Push with this key; null = not configured, in-app notifications only.
      c.json({ success: true as const, data: { public_key: deps.config.WEB_PUSH_VAPID_PUBLIC_KEY ?? null } }),
    )
    .post('/notifications/register', guard, async (c) => {
      const { token, platform } = parseRequest(registerBody, await readJson(c));
      if (isWebPushToken(token)) {
        const subscription = platform === 'web' ? parseWebPushSubscription(token) : null;
        if (!subscription) throw new HttpError(400, 'Not a valid web push subscription');
        if (!isKnownPushService(subscription)) throw new HttpError(400, 'Unknown web push service');
      }
      const now = deps.clock.now();
      // A token is one device. Registering it again (a retry, a new sign-in of the same user) refreshes it; a token
      // another account holds is not moved, or anyone who learned a token could take over that person's device
      // notifications. The web app unregisters the device's token when it signs out, which frees it.
      const { rows } = await sql<{ user_id: string }>`
        INSERT INTO push_tokens (token, user_id, platform, created_at, updated_at)
        VALUES (${token}, ${c.var.userId}, ${platform}, ${now}, ${now})
        ON CONFLICT (token) DO UPDATE SET platform = excluded.platform, updated_at = excluded.updated_at
          WHERE push_tokens.user_id = excluded.user_id
        RETURNING user_id`.execute(db);
      if (rows.length === 0) throw new HttpError(409, TOKEN_OF_ANOTHER_ACCOUNT);
      return c.json({ success: true as const, data: { token, platform } }, 201);
    })
    .delete('/notifications/unregister', guard, async (c) => {
      const { token } = parseRequest(unregisterBody, await readJson(c));
      const result = await sql`
        DELETE FROM push_tokens WHERE user_id = ${c.var.userId} ${token ? sql`AND token = ${token}` : sql``}`.execute(
        db,
      );
      return c.json({ success: true as const, data: { removed: Number(result.numAffectedRows ?? 0) } });
    })
    .get('/notifications/scheduled', guard, async (c) => {
      const now = deps.clock.now();
      const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
      const [input] = await loadReminderInputs(db, now, c.var.userId);
      const plans = input
        ? planReminders(input, instant).filter((p) => Temporal.Instant.compare(p.dueAt, instant) > 0)
        : [];
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
    .get('/notifications/history', guard, async (c) => {
      const { limit } = parseRequest(historyQuery, c.req.query());
      const { rows } = await sql<NotificationRow>`
        SELECT * FROM notifications WHERE user_id = ${c.var.userId}
        ORDER BY delivered_at DESC, id DESC LIMIT ${limit}`.execute(db);
      return c.json({ success: true as const, data: rows.map(notificationJson) });
    })
    .get('/notifications', guard, async (c) => {
      const { after } = parseRequest(afterQuery, c.req.query());
      // Polled every 30 s (§9) with the last delivered_at seen: only newer rows, oldest first.
      const { rows } = await sql<NotificationRow>`
        SELECT * FROM notifications WHERE user_id = ${c.var.userId}
          ${after ? sql`AND delivered_at > ${new Date(after)}` : sql``}
        ORDER BY delivered_at, id LIMIT 100`.execute(db);
      return c.json({ success: true as const, data: rows.map(notificationJson) });
    })
    .post('/notifications/test', guard, async (c) => {
      const raw = await readJson(c);
      const body = parseRequest(testBody, raw);
      // A push is no database write: with an Idempotency-Key the notification's id is the key's effect key, and a
      // retry finds the notification its first attempt delivered (delivered once by id, deliver.ts).
      const keyed = await keyedRequest(deps, c, raw);
      const id = `test:${keyed.effectKey('notification') ?? newAggregateId()}`;
      const url =
        body.type === 'upcoming_goal' ? '/goals' : body.type === 'midweek_update' ? '/profile?tab=stakes' : '/groups';
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
