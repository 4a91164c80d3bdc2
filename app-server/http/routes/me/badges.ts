import { z } from 'zod';
import { Hono } from 'hono';
import { BadgeType } from '../../../../domain/badge/badge-type.ts';
import { badgeDefinition } from '../../../../domain/gamification/badge-definitions.ts';
import { findOwnBadge, listBadges } from '../../../../projections/gamification/badge-queries.ts';
import type { BadgeRow } from '../../../../projections/gamification/tables.ts';
import { celebrateBadge } from '../../../commands/badges/celebrate-badge.ts';
import type { AppDeps } from '../../app.ts';
import type { AppEnv } from '../../app-env.ts';
import { HttpError } from '../../errors.ts';
import { requireUser } from '../../middleware/require-user.ts';
import { readModelsAt } from '../../read-your-writes.ts';
import { commandContext, limitQuery, parseRequest, pathId } from '../../request.ts';
import { pathIdSchema } from '../../../../domain/validation/text.ts';

const BADGE_NOT_FOUND = 'Badge not found';

const uncelebratedFlag = z
  .enum(['true', 'false'], { message: "uncelebrated: must be 'true' or 'false'" })
  .transform((v) => v === 'true');

/** Query of GET /me/badges. */
export const BadgesQuery = z.strictObject({ uncelebrated: uncelebratedFlag.optional(), limit: limitQuery(100, 50) });

/** Path of POST /me/badges/{id}/celebrate. */
export const BadgeIdParam = z.object({ id: pathIdSchema });

/** A badge row with its definition's display fields, as the celebration pop-up and profile grid show it. */
function badgeJson(row: Pick<BadgeRow, 'id' | 'badge_type' | 'earned_at' | 'celebrated_at'>) {
  const type = BadgeType.parse(row.badge_type);
  const { name, description, icon, color } = badgeDefinition(type);
  return {
    id: row.id,
    badge_type: type,
    earned_at: new Date(row.earned_at).toISOString(),
    celebrated_at: row.celebrated_at === null ? null : new Date(row.celebrated_at).toISOString(),
    name,
    description,
    icon,
    color,
  };
}

/** The caller's badges: GET /me/badges, POST /me/badges/{id}/celebrate. */
export function myBadgesRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const guard = requireUser(deps.auth);
  return new Hono<AppEnv>()
    .get('/me/badges', guard, async (c) => {
      const query = parseRequest(BadgesQuery, c.req.query());
      const rows = await listBadges(db, c.var.userId, query);
      return c.json({ success: true as const, data: rows.map(badgeJson) });
    })
    .post('/me/badges/:id/celebrate', guard, async (c) => {
      const id = pathId(c);
      const context = commandContext(deps, c);
      const badge = await findOwnBadge(db, context.userId, id);
      if (!badge) throw new HttpError(404, BADGE_NOT_FOUND);
      const { position } = await celebrateBadge(context, badge.badge_type);
      // Read-your-writes: answer once the badges read model shows the celebration.
      const wait = await readModelsAt(c, deps.projections, position, { status: 200, data: { id } });
      if (!wait.ready) return wait.answer;
      const updated = await findOwnBadge(db, context.userId, id);
      return c.json({ success: true as const, data: badgeJson(updated ?? badge) });
    });
}
