import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createRateLimiter, hitAll } from '../../auth/rate-limiter.ts';
import { safeEqual } from '../../auth/secrets.ts';
import {
  enqueueWebhookEvent,
  isConnectedAthlete,
  STRAVA_WEBHOOK_LIMITS,
  STRAVA_WEBHOOK_MAX_BYTES,
  stravaWebhookEventSchema,
} from '../../integrations/strava-webhook.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../request.ts';

export const STRAVA_WEBHOOK_PATH = '/api/integrations/strava/webhook';

/**
 * The webhook's own body limit, mounted in app.ts BEFORE the app-wide one and the check that parses every JSON body
 * (storable-input.ts): a body over STRAVA_WEBHOOK_MAX_BYTES is refused with 413 from its Content-Length, or as soon as
 * a streamed body passes the limit, without being read or parsed.
 */
export function stravaWebhookBodyLimit(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: STRAVA_WEBHOOK_MAX_BYTES,
    onError: () => {
      throw new HttpError(413, 'Request body too large');
    },
  });
  return (c, next) => (c.req.method === 'POST' ? limit(c, next) : next());
}

/**
 * Strava's webhook (FACTS): the subscription handshake (GET with hub.mode, hub.challenge, hub.verify_token), and
 * events (POST), which are stored and answered 200 at once (Strava wants an answer within 2 s); the strava-sync
 * process fetches and imports on its next tick. The payload is unsigned and anyone can post, so before anything is
 * stored: the body is small (413 over 4 KB, before parsing), its shape strict (400), its owner a connected athlete
 * (else 200 and nothing stored: Strava must not retry, a forger learns nothing), and the event within the per-athlete
 * and overall caps (else 429 with Retry-After, nothing stored: a burst of real events is retried by Strava, a flood
 * costs one indexed read and one counter each). Retries of one event are stored once (webhookEventKey) and give
 * their slots back.
 */
export function integrationsWebhookRoutes(deps: AppDeps) {
  const verifyToken = deps.config.STRAVA_WEBHOOK_VERIFY_TOKEN;
  const db = deps.database.db;
  const limiter = createRateLimiter({ db, clock: deps.clock });
  return new Hono<AppEnv>()
    .get(STRAVA_WEBHOOK_PATH, (c) => {
      const mode = c.req.query('hub.mode');
      const challenge = c.req.query('hub.challenge');
      const token = c.req.query('hub.verify_token') ?? '';
      if (mode !== 'subscribe' || !challenge || challenge.length > 256)
        throw new HttpError(400, 'Invalid subscription request');
      if (!verifyToken || !safeEqual(token, verifyToken)) throw new HttpError(403, 'Invalid verify token');
      return c.json({ 'hub.challenge': challenge });
    })
    .post(STRAVA_WEBHOOK_PATH, async (c) => {
      const parsed = stravaWebhookEventSchema.safeParse(await readJson(c));
      if (!parsed.success) throw new HttpError(400, 'Invalid webhook event');
      const event = parsed.data;
      if (!(await isConnectedAthlete(db, event.owner_id))) return c.json({ success: true as const });
      const { refused, taken } = await hitAll(limiter, [
        [`strava-webhook:owner:${event.owner_id}`, STRAVA_WEBHOOK_LIMITS.perOwner],
        ['strava-webhook:all', STRAVA_WEBHOOK_LIMITS.overall],
      ]);
      if (refused) {
        c.header('Retry-After', String(refused.retryAfter));
        throw new HttpError(429, 'Too many webhook events');
      }
      const stored = await enqueueWebhookEvent(db, event, deps.clock.now());
      // A retry of an event already stored costs nothing against the caps.
      if (!stored) for (const [key, slot] of taken) await limiter.release(key, slot);
      return c.json({ success: true as const });
    });
}
