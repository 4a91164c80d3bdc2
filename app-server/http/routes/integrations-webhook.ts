import { Hono } from 'hono';
import { safeEqual } from '../../auth/secrets.ts';
import { enqueueWebhookEvent, stravaWebhookEventSchema } from '../../integrations/strava-webhook.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../request.ts';

/**
 * Strava's webhook (FACTS): the subscription handshake (GET with hub.mode, hub.challenge, hub.verify_token), and
 * events (POST), which are stored and answered 200 at once (Strava wants an answer within 2 s); the strava-sync
 * process fetches and imports on its next tick. The payload is unsigned, so nothing is believed from it alone.
 */
export function integrationsWebhookRoutes(deps: AppDeps) {
  const verifyToken = deps.config.STRAVA_WEBHOOK_VERIFY_TOKEN;
  return new Hono<AppEnv>()
    .get('/api/integrations/strava/webhook', (c) => {
      const mode = c.req.query('hub.mode');
      const challenge = c.req.query('hub.challenge');
      const token = c.req.query('hub.verify_token') ?? '';
      if (mode !== 'subscribe' || !challenge || challenge.length > 256)
        throw new HttpError(400, 'Invalid subscription request');
      if (!verifyToken || !safeEqual(token, verifyToken)) throw new HttpError(403, 'Invalid verify token');
      return c.json({ 'hub.challenge': challenge });
    })
    .post('/api/integrations/strava/webhook', async (c) => {
      const parsed = stravaWebhookEventSchema.safeParse(await readJson(c));
      if (!parsed.success) throw new HttpError(400, 'Invalid webhook event');
      await enqueueWebhookEvent(deps.database.db, parsed.data, deps.clock.now());
      return c.json({ success: true as const });
    });
}
