import { Hono } from 'hono';
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
import { createOAuthState, readOAuthState } from '../../integrations/oauth-state.ts';
import { syncSinceLastSync } from '../../integrations/sync-activities.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { awaitReadModels } from '../read-your-writes.ts';
import { HttpError } from '../errors.ts';

/** What the app asks Strava for: profile basics and every activity, including Only-You ones. */
const REQUESTED_SCOPES = ['read', 'activity:read_all'] as const;
/** Either activity scope is enough to import runs (`activity:read` misses private ones). */
const ACTIVITY_SCOPES = new Set(['activity:read', 'activity:read_all']);

/** Offered on the connected apps screen but not built (§1, §7): its start answers a not-implemented message. */
const NOT_IMPLEMENTED: Readonly<Record<string, string>> = { garmin: 'Garmin' };

/** Return errors the connected apps screen knows (§8 "Connection return error"). */
type ReturnError = 'access_denied' | 'callback_failed' | 'invalid_state' | 'invalid_request';

/** The provider named in the path, or the answer for one that cannot be used. */
function providerOf(name: string): IntegrationProvider {
  if (name === 'strava') return 'strava';
  const label = NOT_IMPLEMENTED[name];
  if (label) throw new HttpError(501, `${label} connection is not implemented yet`);
  throw new HttpError(404, 'Unknown provider');
}

/**
 * Connected services (§2 Connected apps, §4 Connecting a fitness service, §7): start the OAuth round trip, its
 * callback (state sealed to the user and expiring, granted scopes checked, tokens sealed at rest), the user's
 * connections, disconnect, and a manual sync. The 30-day backfill runs in the strava-sync process, not here.
 */
export function integrationsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const client = deps.strava ?? createStravaClient(deps.config, deps.clock);
  const box = createSecretBox(deps.config.AUTH_ENCRYPTION_KEY);
  const accountDeps = { db, store: deps.store, box, client };
  const redirectUri = `${deps.config.PUBLIC_URL.replace(/\/+$/, '')}/api/integrations/strava/callback`;
  const backToApp = (query: { success: IntegrationProvider } | { error: ReturnError }) =>
    `${deps.config.APP_URL.replace(/\/+$/, '')}/connected-apps?${new URLSearchParams(query)}`;
  const requireConfigured = () => {
    if (!client.configured) throw new HttpError(503, 'Strava is not configured. Please contact support.');
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
    .get('/api/integrations/auth/:provider/start', guard, (c) => {
      const provider = providerOf(c.req.param('provider'));
      requireConfigured();
      const state = createOAuthState(box, c.var.userId, provider, deps.clock.now());
      return c.json({
        success: true as const,
        authUrl: client.authorizeUrl({ redirectUri, state, scopes: REQUESTED_SCOPES }),
      });
    })
    .get('/api/integrations/strava/callback', async (c) => {
      // The browser comes back from Strava: every outcome is a redirect to the app, never an error page or a 500.
      const query = c.req.query();
      if (query.error)
        return c.redirect(backToApp({ error: query.error === 'access_denied' ? 'access_denied' : 'callback_failed' }));
      const now = deps.clock.now();
      const userId = readOAuthState(box, query.state, 'strava', now);
      if (!userId) return c.redirect(backToApp({ error: 'invalid_state' }));
      if (!query.code || query.code.length > 512) return c.redirect(backToApp({ error: 'invalid_request' }));
      const scopes = (query.scope ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      // The athlete may untick "View data about your activities": without it there is nothing to import.
      if (!scopes.some((s) => ACTIVITY_SCOPES.has(s))) return c.redirect(backToApp({ error: 'access_denied' }));
      try {
        const grant = await client.exchangeCode(query.code);
        if (!grant.athleteId) throw new StravaApiError('Strava did not say which athlete connected', null);
        await connectAccount(accountDeps, {
          userId,
          provider: 'strava',
          athleteId: grant.athleteId,
          scopes,
          accessToken: grant.accessToken,
          refreshToken: grant.refreshToken,
          expiresAt: grant.expiresAt,
          now,
        });
      } catch (error) {
        const level = error instanceof AthleteLinkedElsewhere ? 'info' : 'warn';
        deps.logger[level]({ err: error, requestId: c.var.requestId }, 'Strava connection failed');
        return c.redirect(backToApp({ error: 'callback_failed' }));
      }
      return c.redirect(backToApp({ success: 'strava' }));
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
        const result = await syncSinceLastSync(accountDeps, account, now, c.var.requestId);
        const imported = { provider, imported: result.imported, activities: result.activities };
        await awaitReadModels(c, deps.projections, result.position, {
          needs: ['runs', 'goals'],
          status: 200,
          data: imported,
        });
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
