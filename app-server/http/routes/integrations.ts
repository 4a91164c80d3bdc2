import { Hono } from 'hono';
import { z } from 'zod';
import { createStravaClient } from '../../adapters/strava/create-strava-client.ts';
import { StravaApiError, StravaAuthRevoked, StravaRateLimited } from '../../adapters/strava/strava-client.ts';
import { requireUser } from '../middleware/require-user.ts';
import { createSecretBox } from '../../auth/secrets.ts';
import type { IntegrationProvider } from '../../integrations/connection-events.ts';
import {
  AthleteLinkedElsewhere,
  accessTokenFor,
  connectAccount,
  dropAccount,
  findAccount,
  listAccounts,
} from '../../integrations/external-accounts.ts';
import { consumeOAuthState, returnOfState, startOAuthState } from '../../integrations/oauth-state.ts';
import { syncSinceLastSync } from '../../integrations/sync-activities.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { A_RUN_LEAVES_TO_CATCH_UP, readModelsAt } from '../read-your-writes.ts';
import { recordingWrites } from '../request-writes.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../request.ts';

/** What the app asks Strava for: profile basics and every activity, including Only-You ones. */
const REQUESTED_SCOPES = ['read', 'activity:read_all'] as const;
/** Either activity scope is enough to import runs (`activity:read` misses private ones). */
const ACTIVITY_SCOPES = new Set(['activity:read', 'activity:read_all']);

/** Offered on the connected apps screen but not built (§1, §7): its start answers a not-implemented message. */
const NOT_IMPLEMENTED: Readonly<Record<string, string>> = { garmin: 'Garmin' };

/**
 * What Connect answers while Strava is not configured: the connected apps screen shows it, so whoever runs the server
 * learns there which variables turn Strava on (README, configuration), not only that it is off.
 */
export const STRAVA_NOT_CONFIGURED =
  'Strava is not configured. An operator must set STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET (the Strava API ' +
  'application, strava.com/settings/api), STRAVA_WEBHOOK_VERIFY_TOKEN for new runs to arrive by webhook, and ' +
  'STRAVA_API_URL only to use another address than https://www.strava.com.';

/** Return errors the connected apps screen knows (§8 "Connection return error"). */
type ReturnError = 'access_denied' | 'callback_failed' | 'invalid_state' | 'invalid_request';

/** The §8 sentence of each return error; the app shows its own copy of these, chosen by `code`. */
const RETURN_MESSAGES: Readonly<Record<ReturnError, string>> = {
  access_denied: 'Access was denied. Please try again.',
  callback_failed: 'Connection failed. Please try again.',
  invalid_request: 'The connection request was incomplete. Please try again.',
  invalid_state: 'The connection request expired or did not start here. Please connect again.',
};

const returnError = (status: 400 | 409 | 422, code: ReturnError) =>
  new HttpError(status, RETURN_MESSAGES[code], { code });

const MAX_STATE = 200;
const MAX_CODE = 512;
const MAX_SCOPE = 200;

/**
 * The native shell's deep link for a provider's return (registered in native/android and native/ios, like the auth
 * callback). The shell opens the provider in the system browser, which holds no session of the app: the hand-over
 * has to come back into the app, whose webview completes it with its token.
 */
export const NATIVE_CONNECTION_RETURN = 'stridestake://connected-apps';

/** GET …/start's query: `return=native` from the shell (the hand-over then opens the app), else the web app. */
export const startConnectionQuerySchema = z.object({ return: z.enum(['web', 'native']).catch('web') });

/** What the app posts back after Strava's return (the callback hands these over in the fragment). */
export const completeConnectionBodySchema = z.object({
  code: z.string().min(1).max(MAX_CODE),
  state: z.string().min(1).max(MAX_STATE),
  scope: z.string().max(MAX_SCOPE).default(''),
});

/** The provider named in the path, or the answer for one that cannot be used. */
function providerOf(name: string): IntegrationProvider {
  if (name === 'strava') return 'strava';
  const label = NOT_IMPLEMENTED[name];
  if (label) throw new HttpError(501, `${label} connection is not implemented yet`);
  throw new HttpError(404, 'Unknown provider');
}

/**
 * Connected services (§2 Connected apps, §4 Connecting a fitness service, §7): the OAuth round trip, the user's
 * connections, disconnect, and a manual sync. The 30-day backfill runs in the strava-sync process, not here.
 *
 * The round trip proves that the browser which comes back is the one that started (FACTS, Security):
 * 1. `GET …/auth/strava/start` (bearer token) stores a random state bound to the user AND the auth session
 *    (oauth-state.ts) and answers Strava's authorize URL; the app leaves for it.
 * 2. Strava sends the browser to `GET /api/integrations/strava/callback?code&state&scope`. That request carries no
 *    proof of anyone's session, so it decides nothing: it redirects to the app's `/connected-apps#provider&code&
 *    state&scope` (a fragment: not sent to the web server nor in a Referer).
 * 3. The app, which holds the session, posts them with its bearer token to `POST …/auth/strava/complete`, which
 *    spends the state (one conditional DELETE: same user, same session, unexpired, unused) and only then exchanges
 *    the code and links the athlete.
 * A victim who completes an attacker's authorize URL arrives at step 3 signed in as themselves: the state is not
 * theirs, nothing is linked. An attacker who gets a victim to open the attacker's own step-2 address fails the same
 * way. Why not a cookie set at start: the app calls the API from another origin with a bearer token (a cookie set by
 * a cross-origin fetch is third-party and often dropped), and in the Capacitor shell the consent page opens in the
 * system browser, whose cookie jar is not the WebView's; the bearer token is what both the web app and the shell
 * hold. (The shell needs the return address of step 2 to be its deep link; see integrations/README.md.)
 */
export function integrationsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const client = deps.strava ?? createStravaClient(deps.config, deps.clock);
  const box = createSecretBox(deps.config.AUTH_ENCRYPTION_KEY);
  const accountDeps = { db, store: deps.store, box, client };
  const redirectUri = `${deps.config.PUBLIC_URL.replace(/\/+$/, '')}/api/integrations/strava/callback`;
  const appUrl = deps.config.APP_URL.replace(/\/+$/, '');
  const backToApp = (query: { error: ReturnError }) => `${appUrl}/connected-apps?${new URLSearchParams(query)}`;
  const requireConfigured = () => {
    if (!client.configured) throw new HttpError(503, STRAVA_NOT_CONFIGURED);
  };
  const ownAccount = async (userId: string, provider: IntegrationProvider) => {
    const account = await findAccount(db, userId, provider);
    if (!account) throw new HttpError(404, 'No connected Strava account');
    return account;
  };

  return new Hono<AppEnv>()
    .get('/api/integrations', guard, async (c) => {
      const rows = await listAccounts(db, c.var.userId);
      return c.json({
        success: true as const,
        data: rows.map((row) => ({
          id: row.id,
          provider: row.provider,
          external_user_id: row.external_user_id,
          scopes: row.scopes.split(',').filter(Boolean),
          last_sync_at: row.last_sync_at?.toISOString() ?? null,
          created_at: row.created_at.toISOString(),
          backfill_pending: row.backfill_pending !== null,
        })),
      });
    })
    .get('/api/integrations/auth/:provider/start', guard, async (c) => {
      const provider = providerOf(c.req.param('provider'));
      requireConfigured();
      const caller = { userId: c.var.userId, sessionId: c.var.sessionId };
      const { return: returnTo } = startConnectionQuerySchema.parse(c.req.query());
      const state = await startOAuthState(db, caller, provider, deps.clock.now(), returnTo);
      return c.json({
        success: true as const,
        authUrl: client.authorizeUrl({ redirectUri, state, scopes: REQUESTED_SCOPES }),
      });
    })
    .get('/api/integrations/strava/callback', async (c) => {
      // The browser comes back from Strava: every outcome is a redirect to the app, never an error page or a 500.
      // Nothing is decided here (this request carries no proof of who is signed in): the code and state go on to the
      // app, in the fragment (never sent to the web server, never in a Referer), which completes with its token.
      const query = c.req.query();
      if (query.error)
        return c.redirect(backToApp({ error: query.error === 'access_denied' ? 'access_denied' : 'callback_failed' }));
      if (!query.state || query.state.length > MAX_STATE) return c.redirect(backToApp({ error: 'invalid_state' }));
      if (!query.code || query.code.length > MAX_CODE || (query.scope ?? '').length > MAX_SCOPE)
        return c.redirect(backToApp({ error: 'invalid_request' }));
      const handOver = new URLSearchParams({
        provider: 'strava',
        code: query.code,
        state: query.state,
        scope: query.scope ?? '',
      });
      const returnTo = await returnOfState(db, query.state, deps.clock.now());
      const page = returnTo === 'native' ? NATIVE_CONNECTION_RETURN : `${appUrl}/connected-apps`;
      return c.redirect(`${page}#${handOver}`);
    })
    .post('/api/integrations/auth/:provider/complete', guard, async (c) => {
      const provider = providerOf(c.req.param('provider'));
      requireConfigured();
      const body = completeConnectionBodySchema.safeParse(await readJson(c));
      if (!body.success) throw returnError(400, 'invalid_request');
      const now = deps.clock.now();
      // Used up here, before anything else: only by the session that started it, once, within its 10 minutes.
      const caller = { userId: c.var.userId, sessionId: c.var.sessionId };
      if (!(await consumeOAuthState(db, body.data.state, caller, provider, now)))
        throw returnError(400, 'invalid_state');
      const scopes = body.data.scope
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      // The athlete may untick "View data about your activities": without it there is nothing to import.
      if (!scopes.some((s) => ACTIVITY_SCOPES.has(s))) throw returnError(400, 'access_denied');
      try {
        const grant = await client.exchangeCode(body.data.code);
        if (!grant.athleteId) throw new StravaApiError('Strava did not say which athlete connected', null);
        await connectAccount(accountDeps, {
          userId: c.var.userId,
          provider: 'strava',
          athleteId: grant.athleteId,
          scopes,
          accessToken: grant.accessToken,
          refreshToken: grant.refreshToken,
          expiresAt: grant.expiresAt,
          now,
        });
      } catch (error) {
        if (error instanceof AthleteLinkedElsewhere) {
          deps.logger.info({ err: error, requestId: c.var.requestId }, 'Strava connection refused');
          throw returnError(409, 'callback_failed');
        }
        if (!(error instanceof StravaApiError)) throw error;
        deps.logger.warn({ err: error, requestId: c.var.requestId }, 'Strava connection failed');
        // Not a 5xx: Strava's code is single-use and the state is spent, so a client's automatic retry cannot succeed.
        throw returnError(422, 'callback_failed');
      }
      return c.json({ success: true as const, data: { provider, connected: true as const } });
    })
    .delete('/api/integrations/:provider/disconnect', guard, async (c) => {
      const provider = providerOf(c.req.param('provider'));
      const account = await ownAccount(c.var.userId, provider);
      const now = deps.clock.now();
      try {
        await client.deauthorize(await accessTokenFor(accountDeps, account, now));
      } catch (error) {
        // Already revoked, or Strava unreachable: the user asked to disconnect, so our copy of the tokens goes anyway.
        deps.logger.warn({ err: error, requestId: c.var.requestId }, 'Strava deauthorization failed');
      }
      await dropAccount(accountDeps, account, 'user', now, c.var.userId);
      return c.json({ success: true as const, data: { provider, disconnected: true } });
    })
    .post('/api/integrations/:provider/sync', guard, async (c) => {
      const provider = providerOf(c.req.param('provider'));
      requireConfigured();
      const account = await ownAccount(c.var.userId, provider);
      const now = deps.clock.now();
      try {
        // Its store notes what the sync appends: the read models its runs reach are the ones waited for.
        const syncDeps = { ...accountDeps, store: recordingWrites(c, deps.store) };
        const result = await syncSinceLastSync(syncDeps, account, now, c.var.requestId);
        const imported = { provider, imported: result.imported, activities: result.activities };
        const wait = await readModelsAt(c, deps.projections, result.position, {
          leavesToCatchUp: A_RUN_LEAVES_TO_CATCH_UP,
          status: 200,
          data: imported,
        });
        if (!wait.ready) return wait.answer;
        const synced = await findAccount(db, c.var.userId, provider);
        return c.json({
          success: true as const,
          data: {
            imported: result.imported,
            activities: result.activities,
            last_sync_at: synced?.last_sync_at?.toISOString() ?? null,
          },
        });
      } catch (error) {
        if (error instanceof StravaRateLimited) {
          const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - now.getTime()) / 1000));
          c.header('Retry-After', String(seconds));
          throw new HttpError(429, 'Strava rate limit reached. Please try again later.', {
            retry_at: error.retryAt.toISOString(),
          });
        }
        if (error instanceof StravaAuthRevoked) {
          await dropAccount(accountDeps, account, 'deauthorized', now, null);
          throw new HttpError(409, 'Strava access was revoked. Please connect Strava again.');
        }
        if (error instanceof StravaApiError) throw new HttpError(502, 'Sync failed');
        throw error;
      }
    });
}
