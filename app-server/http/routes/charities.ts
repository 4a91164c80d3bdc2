import { Hono } from 'hono';
import { listActiveCharities } from '../../charities/charity-queries.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';

/** The charities a runner can choose (§7 "charities: active, by name"); public, like the landing page's list. */
export function charitiesRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/charities', async (c) => {
    const rows = await listActiveCharities(deps.database.db);
    const charities = rows.map(({ id, name, description, logo_url, website_url, is_active }) => ({
      id,
      name,
      description,
      logo_url,
      website_url,
      is_active,
    }));
    return c.json({ success: true as const, charities });
  });
}
