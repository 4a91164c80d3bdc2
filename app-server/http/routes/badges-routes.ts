import { Hono } from 'hono';
import { BadgeType } from '../../../domain/badge/badge-type.ts';
import { badgeDecider } from '../../../domain/badge/decide.ts';
import { BADGE_DEFINITIONS, badgeDefinition } from '../../../domain/gamification/badge-definitions.ts';
import type { BadgeRow, GamificationTables } from '../../../projections/gamification/tables.ts';
import { requireUser } from '../../auth/guard.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { badgeStreamId } from '../../process/awards/award-context.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { BadgeIdParam, BadgesQuery, NoQuery } from '../openapi/gamification-schemas.ts';
import { parseOr400 } from '../openapi/parse.ts';

/** A badge row with its definition's display fields, as the celebration pop-up and profile grid show it. */
function present(row: Pick<BadgeRow, 'id' | 'badge_type' | 'earned_at' | 'celebrated_at'>) {
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

/** Badges: GET /badges/definitions (public), GET /me/badges, POST /me/badges/{id}/celebrate. */
export function badgesRoutes(deps: AppDeps) {
  const db = deps.database.db.withTables<GamificationTables>();
  const guard = requireUser(deps.auth);
  const badgeOf = (userId: string, id: string) =>
    db.selectFrom('badges').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

  return new Hono<AppEnv>()
    .get('/badges/definitions', (c) => {
      parseOr400(NoQuery, c.req.query());
      return c.json({ success: true as const, definitions: [...BADGE_DEFINITIONS] });
    })
    .get('/me/badges', guard, async (c) => {
      const query = parseOr400(BadgesQuery, c.req.query());
      let select = db.selectFrom('badges').selectAll().where('user_id', '=', c.get('userId'));
      if (query.uncelebrated !== undefined) {
        select = select.where('celebrated_at', query.uncelebrated ? 'is' : 'is not', null);
      }
      const rows = await select.orderBy('earned_at', 'desc').orderBy('id').limit(query.limit).execute();
      return c.json({ success: true as const, data: rows.map(present) });
    })
    .post('/me/badges/:id/celebrate', guard, async (c) => {
      const { id } = parseOr400(BadgeIdParam, c.req.param());
      const userId = c.get('userId');
      // Another user's badge reads as absent: ids do not reveal whose they are.
      const badge = await badgeOf(userId, id);
      if (!badge) throw new HttpError(404, 'Badge not found');
      const now = deps.clock.now();
      const result = await executeCommand(
        deps.store,
        badgeDecider,
        badgeStreamId(userId),
        { type: 'CelebrateBadge', userId, badgeType: badge.badge_type, now: now.toISOString() },
        { actorId: userId, correlationId: c.get('requestId'), now, newEventId: () => crypto.randomUUID() },
      );
      // Read-your-writes: answer once the badges read model shows the celebration.
      if (result.append) await deps.projections.waitFor(result.append.position);
      const updated = await badgeOf(userId, id);
      return c.json({ success: true as const, data: present(updated ?? badge) });
    });
}
