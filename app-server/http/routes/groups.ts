import { type Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import { createGroupBodySchema, joinGroupBodySchema } from '../../../domain/validation/group.ts';
import {
  findGroupOfMember,
  type GroupsCursor,
  groupMembers,
  listGroupsPage,
} from '../../../projections/groups/group-queries.ts';
import { GROUP_MEMBERS_MAX } from '../../../domain/group/policy.ts';
import { userTimeZone } from '../../auth/user-time-zone.ts';
import { createGroup, joinGroup, leaveGroup, rotateInviteCode } from '../../commands/groups/group-commands.ts';
import { withGenericPlans } from '../../db/generic-plans.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { INVITE_GUESSES } from '../limits/route-limits.ts';
import { requireUser } from '../middleware/require-user.ts';
import { readModelsAt } from '../read-your-writes.ts';
import { commandContext, keyedRequest, limitQuery, parseRequest, pathId, readJson } from '../request.ts';
import { groupJson, leaderboardJson } from './groups-json.ts';
import { groupChallenges } from './groups-challenges.ts';
import { groupRecap, viewerWeek } from './groups-stats.ts';

/** Refusals that count as a guess: no group has this code (or had, until it expired). */
const WRONG_CODE = new Set(['invite_code_mismatch', 'invite_code_expired']);

/** The one answer for a group that does not exist and one the caller is not in: outsiders learn nothing. */
export const GROUP_NOT_FOUND = 'Group not found';

/** GET /groups/{id}/recap's query (also its OpenAPI description). Years 2000–2099: PostgreSQL has no year 0. */
export const recapQuerySchema = z.object({
  week_start: z
    .string()
    .regex(/^20\d{2}-\d{2}-\d{2}$/, 'week_start must be a Monday as YYYY-MM-DD')
    .refine((d) => {
      const date = new Date(`${d}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(d) && date.getUTCDay() === 1;
    }, 'week_start must be a Monday as YYYY-MM-DD')
    .optional(),
});

/** GET /groups's query (also its OpenAPI description): pages of `limit` groups, `cursor` from `next_cursor`. */
export const groupsQuerySchema = z.strictObject({
  limit: limitQuery(50, 20),
  cursor: z.string().max(200, 'Invalid cursor').optional(),
});

const encodeGroupsCursor = (c: GroupsCursor) =>
  Buffer.from(JSON.stringify([c.joinedAt.toISOString(), c.groupId])).toString('base64url');

function decodeGroupsCursor(raw: string): GroupsCursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(raw, 'base64url').toString()) as unknown[];
    const joinedAt = new Date(String(at));
    if (typeof id === 'string' && typeof at === 'string' && !Number.isNaN(joinedAt.getTime())) {
      return { joinedAt, groupId: id };
    }
  } catch {}
  throw new HttpError(400, 'Invalid cursor');
}

/**
 * Groups (§2, §3, §6, §7): create, join by code, list, detail, leave, leaderboard, challenges, weekly recap and
 * invite-code rotation. Only members see a group; everyone else gets 404 'Group not found'.
 */
export function groupsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const memberOr404 = async (groupId: string, userId: string, reader: Kysely<object> = db) => {
    const group = await findGroupOfMember(reader, groupId, userId);
    if (!group) throw new HttpError(404, GROUP_NOT_FOUND);
    return group;
  };
  const detail = async (groupId: string, userId: string) => {
    const group = await memberOr404(groupId, userId);
    // A group has at most GROUP_MEMBERS_MAX members; a larger one from before the cap shows its first ones.
    return groupJson(group, await groupMembers(db, groupId, GROUP_MEMBERS_MAX));
  };
  // Every group command's answer reads the groups read model (groups and members).
  const groupsAt = (
    c: Context<AppEnv>,
    position: LogPosition | null,
    status: 200 | 201,
    data: Record<string, unknown>,
  ) => readModelsAt(c, deps.projections, position, { status, data });
  return new Hono<AppEnv>()
    .post('/groups', guard, async (c) => {
      const raw = await readJson(c);
      const { name } = parseRequest(createGroupBodySchema, raw);
      const context = commandContext(deps, c);
      const keyed = await keyedRequest(deps, c, raw);
      const { groupId, position } = await keyed.once((tx) =>
        createGroup(context, name, deps.config.GROUPS_MAX_PER_USER, tx),
      );
      const wait = await groupsAt(c, position, 201, { id: groupId });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: await detail(groupId, context.userId) }, 201);
    })
    .post('/groups/join', guard, async (c) => {
      const raw = await readJson(c);
      const { invite_code } = parseRequest(joinGroupBodySchema, raw);
      const context = commandContext(deps, c);
      const keyed = await keyedRequest(deps, c, raw);
      // No guessing: a slot is taken before the code is checked (wrong codes per user and per address, atomically);
      // only a wrong code keeps it. Once they are used up, even the right code waits for the window (Retry-After).
      const guess = await c.var.limits.hit(c, [
        [`invite-guess:u:${context.userId}`, INVITE_GUESSES.perUser],
        [`invite-guess:ip:${c.var.limits.address(c)}`, INVITE_GUESSES.perAddress],
      ]);
      const { groupId, position } = await keyed
        .once((tx) => joinGroup(context, invite_code, deps.config.GROUPS_MAX_PER_USER, tx))
        .catch(async (error: unknown) => {
          if (!(error instanceof DomainRefusal && WRONG_CODE.has(error.reason.code))) {
            await c.var.limits.release(guess);
          }
          throw error;
        });
      await c.var.limits.release(guess);
      const wait = await groupsAt(c, position, 200, { id: groupId });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: await detail(groupId, context.userId) });
    })
    .get('/groups', guard, async (c) => {
      const query = parseRequest(groupsQuerySchema, c.req.query());
      const after = query.cursor === undefined ? null : decodeGroupsCursor(query.cursor);
      const page = await listGroupsPage(db, c.var.userId, { limit: query.limit, after });
      const data = await Promise.all(
        page.rows.map(async (g) => groupJson(g, await groupMembers(db, g.id, GROUP_MEMBERS_MAX))),
      );
      return c.json({
        success: true as const,
        groups: data,
        next_cursor: page.next ? encodeGroupsCursor(page.next) : null,
      });
    })
    .get('/groups/:id', guard, async (c) =>
      c.json({ success: true as const, data: await detail(pathId(c), c.var.userId) }),
    )
    .post('/groups/:id/leave', guard, async (c) => {
      const groupId = pathId(c);
      await memberOr404(groupId, c.var.userId);
      const { position } = await leaveGroup(commandContext(deps, c), groupId);
      const wait = await groupsAt(c, position, 200, { id: groupId, left: true });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: { id: groupId, left: true } });
    })
    .post('/groups/:id/invite-code', guard, async (c) => {
      const groupId = pathId(c);
      await memberOr404(groupId, c.var.userId);
      const { position } = await rotateInviteCode(commandContext(deps, c), groupId);
      const wait = await groupsAt(c, position, 200, { id: groupId });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: await detail(groupId, c.var.userId) });
    })
    .get('/groups/:id/leaderboard', guard, async (c) => {
      const groupId = pathId(c);
      const userId = c.var.userId;
      const members = await withGenericPlans(db, async (tx) => {
        await memberOr404(groupId, userId, tx);
        return groupMembers(tx, groupId);
      });
      return c.json({ success: true as const, data: leaderboardJson(members, userId) });
    })
    .get('/groups/:id/challenges', guard, async (c) => {
      // Members and names read afresh, their figures from the read cache, the JSON made once (groups-challenges.ts).
      const body = await groupChallenges(db, deps.readCache, pathId(c), c.var.userId, deps.clock.now());
      if (body === null) throw new HttpError(404, GROUP_NOT_FOUND);
      return c.body(body, 200, { 'Content-Type': 'application/json' });
    })
    .get('/groups/:id/recap', guard, async (c) => {
      const groupId = pathId(c);
      const userId = c.var.userId;
      const query = parseRequest(recapQuerySchema, c.req.query());
      const data = await withGenericPlans(db, async (tx) => {
        await memberOr404(groupId, userId, tx);
        const timeZone = await userTimeZone(tx, userId);
        const weekStart = query.week_start ?? viewerWeek(deps.clock.now(), timeZone).weekStart;
        const members = await groupMembers(tx, groupId);
        return groupRecap(tx, groupId, userId, members, weekStart, timeZone);
      });
      return c.json({ success: true as const, data });
    });
}
