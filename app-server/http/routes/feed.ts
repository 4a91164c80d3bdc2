import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { storableString } from '../../../domain/validation/text.ts';
import { feedFilterSchema, reactionBodySchema, reactionEmojiSchema } from '../../../domain/validation/feed.ts';
import {
  charityNames,
  type FeedListRow,
  findFeedEvent,
  listFeed,
  reactionsOn,
} from '../../../projections/feed/feed-queries.ts';
import { findGroupOfMember, groupMatesOf } from '../../../projections/groups/group-queries.ts';
import { requireUser } from '../middleware/require-user.ts';
import { addReaction, removeReaction } from '../../commands/reactions/reaction-commands.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { awaitReadModels } from '../read-your-writes.ts';
import { feedEventJson, reactionsJson } from './feed-json.ts';
import { GROUP_NOT_FOUND } from './groups.ts';
import { commandContext, creatingContext, parseRequest, pathId, readJson } from '../request.ts';

const FEED_EVENT_NOT_FOUND = 'Feed event not found';

/** GET /feed's query (also its OpenAPI description). */
export const feedQuerySchema = z.object({
  group_id: storableString().min(1).max(100).optional(),
  filter: feedFilterSchema.catch('all'),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'Invalid cursor')
    .transform(Number)
    .optional(),
});

/** The body of POST /feed/{id}/reactions: the kind (the card is in the path). */
export const reactionBody = reactionBodySchema.pick({ emoji: true });
/** The path of DELETE /feed/{id}/reactions/{emoji}. */
export const reactionParams = z.object({ emoji: reactionEmojiSchema });

/** The charity names a page's settled-stake cards need. */
async function namesFor(db: Kysely<object>, rows: readonly FeedListRow[]) {
  const ids = rows.map((r) => r.event_data.charity_id).filter((id): id is string => typeof id === 'string');
  return charityNames(db, [...new Set(ids)]);
}

/**
 * The activity feed and reactions (§3, §7). A card is visible to its author and to anyone sharing a group with
 * them; anyone else gets 404, so card ids reveal nothing.
 */
export function feedRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const visibleOr404 = async (id: string, viewerId: string) => {
    const row = await findFeedEvent(db, id);
    if (!row || !(await groupMatesOf(db, viewerId)).includes(row.user_id))
      throw new HttpError(404, FEED_EVENT_NOT_FOUND);
    return row;
  };
  const cardReactions = async (id: string) => reactionsJson(await reactionsOn(db, [id]));
  return new Hono<AppEnv>()
    .get('/feed', guard, async (c) => {
      const query = parseRequest(feedQuerySchema, c.req.query());
      const viewerId = c.var.userId;
      if (query.group_id && !(await findGroupOfMember(db, query.group_id, viewerId)))
        throw new HttpError(404, GROUP_NOT_FOUND);
      const scope = query.group_id
        ? { kind: 'group' as const, groupId: query.group_id }
        : { kind: 'own' as const, userId: viewerId };
      const { rows, nextCursor } = await listFeed(db, scope, query.filter, query.cursor ?? null);
      const [reactions, charities] = await Promise.all([
        reactionsOn(
          db,
          rows.map((r) => r.id),
        ),
        namesFor(db, rows),
      ]);
      return c.json({
        success: true as const,
        data: rows.map((r) => feedEventJson(r, viewerId, query.group_id ?? null, reactions, charities)),
        next_cursor: nextCursor === null ? null : String(nextCursor),
      });
    })
    .post('/feed/:id/reactions', guard, async (c) => {
      const raw = await readJson(c);
      const { emoji } = parseRequest(reactionBody, raw);
      const id = pathId(c);
      await visibleOr404(id, c.var.userId);
      const { position } = await addReaction(await creatingContext(deps, c, raw), id, emoji);
      await awaitReadModels(c, deps.projections, position, { needs: ['feed'], status: 201, data: { id } });
      return c.json({ success: true as const, data: await cardReactions(id) }, 201);
    })
    .delete('/feed/:id/reactions/:emoji', guard, async (c) => {
      const { emoji } = parseRequest(reactionParams, { emoji: c.req.param('emoji') });
      const id = pathId(c);
      await visibleOr404(id, c.var.userId);
      const { position } = await removeReaction(commandContext(deps, c), id, emoji);
      await awaitReadModels(c, deps.projections, position, { needs: ['feed'], status: 200, data: { id } });
      return c.json({ success: true as const, data: await cardReactions(id) });
    });
}
