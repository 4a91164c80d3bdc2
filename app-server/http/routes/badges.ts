import { Hono } from 'hono';
import { BADGE_DEFINITIONS } from '../../../domain/gamification/badge-definitions.ts';
import type { AppEnv } from '../app-env.ts';
import { noQuery, parseRequest } from '../request.ts';

/** GET /badges/definitions (public): every badge, with its name, description, icon and colour (§3). */
export function badgesRoutes() {
  return new Hono<AppEnv>().get('/badges/definitions', (c) => {
    parseRequest(noQuery, c.req.query());
    return c.json({ success: true as const, definitions: [...BADGE_DEFINITIONS] });
  });
}
