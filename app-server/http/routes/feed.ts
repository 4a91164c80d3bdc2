import { Hono } from 'hono';
import { z } from 'zod';
import { storableString } from '../../../domain/validation/text.ts';
import { feedFilterSchema, reactionBodySchema, reactionEmojiSchema } from '../../../domain/validation/feed.ts';
import { findFeedEvent, reactionsOn } from '../../../projections/feed/feed-queries.ts';
import { groupMatesOf } from '../../../projections/groups/group-queries.ts';
import { requireUser } from '../middleware/require-user.ts';
import { addReaction, removeReaction } from '../../commands/reactions/reaction-commands.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { readModelsAt } from '../read-your-writes.ts';
import { feedEventJson, reactionsJson } from './feed-json.ts';
import { feedPage } from './feed-page.ts';
import { GROUP_NOT_FOUND } from './groups.ts';
import { commandContext, keyedRequest, parseRequest, pathId, readJson } from '../request.ts';

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
      const page = await feedPage(db, deps.readCache, viewerId, query);
      if (page === null) throw new HttpError(404, GROUP_NOT_FOUND);
      const { rows, reactions, charities, nextCursor } = page;
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
      const context = commandContext(deps, c);
      const keyed = await keyedRequest(deps, c, raw);
      const { position } = await keyed.once((tx) => addReaction(context, id, emoji, tx));
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: { id } });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: await cardReactions(id) }, 201);
    })
    .delete('/feed/:id/reactions/:emoji', guard, async (c) => {
      const { emoji } = parseRequest(reactionParams, { emoji: c.req.param('emoji') });
      const id = pathId(c);
      await visibleOr404(id, c.var.userId);
      const { position } = await removeReaction(commandContext(deps, c), id, emoji);
      const wait = await readModelsAt(c, deps.projections, position, { status: 200, data: { id } });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: await cardReactions(id) });
    });
}
