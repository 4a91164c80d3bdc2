import { z } from 'zod';
import type { RouteDoc } from '../openapi/route-docs.ts';

const provider = z.object({ provider: z.string().min(1) });

/**
 * OpenAPI entries of the integration routes (integrations-routes.ts, integrations-webhook-routes.ts), to be spread
 * into ROUTE_DOCS. The callback and the webhook are called by the browser on its way back from Strava and by
 * Strava itself, so they carry no bearer token.
 */
export const INTEGRATION_ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/api/integrations',
    tag: 'integrations',
    summary: 'Your connected services (§3 External account), without tokens',
    auth: true,
  },
  {
    method: 'get',
    path: '/api/integrations/auth/:provider/start',
    tag: 'integrations',
    summary: 'Start connecting a service: { authUrl } for Strava; 501 for the second fitness service',
    auth: true,
    params: provider,
    errors: [404, 501, 503],
  },
  {
    method: 'get',
    path: '/api/integrations/strava/callback',
    tag: 'integrations',
    summary: 'OAuth return from Strava: redirects to /connected-apps?success=strava or ?error=…',
    auth: false,
    query: z.object({
      code: z.string().optional(),
      state: z.string().optional(),
      scope: z.string().optional(),
      error: z.string().optional(),
    }),
  },
  {
    method: 'delete',
    path: '/api/integrations/:provider/disconnect',
    tag: 'integrations',
    summary: 'Disconnect a service (deauthorized at Strava); runs already imported stay',
    auth: true,
    params: provider,
    errors: [404, 501],
  },
  {
    method: 'post',
    path: '/api/integrations/:provider/sync',
    tag: 'integrations',
    summary: 'Import the activities started since the last sync',
    auth: true,
    params: provider,
    errors: [404, 409, 429, 501, 502, 503],
  },
  {
    method: 'get',
    path: '/api/integrations/strava/webhook',
    tag: 'integrations',
    summary: 'Strava webhook subscription handshake (hub.challenge echoed for the right hub.verify_token)',
    auth: false,
    query: z.object({
      'hub.mode': z.string(),
      'hub.challenge': z.string(),
      'hub.verify_token': z.string(),
    }),
    errors: [403],
  },
  {
    method: 'post',
    path: '/api/integrations/strava/webhook',
    tag: 'integrations',
    summary: 'Strava webhook event: stored and answered at once, processed by the strava-sync process',
    auth: false,
  },
];
