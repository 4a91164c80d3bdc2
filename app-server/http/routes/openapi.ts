import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { buildOpenApiDocument, type RegisteredRoute } from '../openapi/openapi-document.ts';

/** GET /openapi.json; `routes` is read on request so that it sees every sub-app mounted after this one. */
export function openapiRoutes(routes: () => readonly RegisteredRoute[], rateLimitMultiplier = 1) {
  let cached: ReturnType<typeof buildOpenApiDocument> | null = null;
  return new Hono<AppEnv>().get('/openapi.json', (c) => {
    cached ??= buildOpenApiDocument(routes(), rateLimitMultiplier);
    return c.json(cached);
  });
}
