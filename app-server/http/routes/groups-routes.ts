import { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { DEFAULT_TIME_ZONE } from '../../../domain/shared/time-zone.ts';
import { createGroupBodySchema, joinGroupBodySchema } from '../../../domain/validation/group.ts';
import { findGroupOfMember, groupMembers, listGroupsOf } from '../../../projections/groups/group-queries.ts';
import { requireUser } from '../../auth/guard.ts';
import { createGroup, joinGroup, leaveGroup, rotateInviteCode } from '../../commands/groups/group-commands.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { groupChallenges, groupRecap, viewerWeek } from './groups-stats.ts';
import { groupJson, leaderboardJson } from './groups-json.ts';
import { commandContext, parseWith, readJson } from './goals-input.ts';

/** The one answer for a group that does not exist and one the caller is not in: outsiders learn nothing. */
export const GROUP_NOT_FOUND = 'Group not found';

const recapQuerySchema = z.object({
  week_start: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'week_start must be a Monday as YYYY-MM-DD')
    .refine((d) => {
      const date = new Date(`${d}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(d) && date.getUTCDay() === 1;
    }, 'week_start must be a Monday as YYYY-MM-DD')
    .optional(),
});

async function timeZoneOf(db: Kysely<object>, userId: string): Promise<string> {
  const { rows } = await sql<{ timezone: string }>`SELECT timezone FROM users WHERE id = ${userId}`.execute(db);
  return rows[0]?.timezone ?? DEFAULT_TIME_ZONE;
}

/**
 * Groups (§2, §3, §6, §7): create, join by code, list, detail, leave, leaderboard, challenges, weekly recap and
 * invite-code rotation. Only members see a group; everyone else gets 404 'Group not found'.
 */
export function groupsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const memberOr404 = async (groupId: string, userId: string) => {
    const group = await findGroupOfMember(db, groupId, userId);
    if (!group) throw new HttpError(404, GROUP_NOT_FOUND);
    return group;
  };
  const detail = async (groupId: string, userId: string) => {
    const group = await memberOr404(groupId, userId);
    return groupJson(group, await groupMembers(db, groupId));
  };
  const waitFor = async (position: Parameters<typeof deps.projections.waitFor>[0] | null) => {
    if (position) await deps.projections.waitFor(position);
  };
  return new Hono<AppEnv>()
    .use('/groups', guard)
    .use('/groups/*', guard)
    .post('/groups', async (c) => {
      const { name } = parseWith(createGroupBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const { groupId, position } = await createGroup(context, name);
      await waitFor(position);
      return c.json({ success: true as const, data: await detail(groupId, context.userId) }, 201);
    })
    .post('/groups/join', async (c) => {
      const { invite_code } = parseWith(joinGroupBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const { groupId, position } = await joinGroup(context, invite_code);
      await waitFor(position);
      return c.json({ success: true as const, data: await detail(groupId, context.userId) });
    })
    .get('/groups', async (c) => {
      const groups = await listGroupsOf(db, c.var.userId);
      const data = await Promise.all(groups.map(async (g) => groupJson(g, await groupMembers(db, g.id))));
      return c.json({ success: true as const, groups: data });
    })
    .get('/groups/:id', async (c) => c.json({ success: true as const, data: await detail(c.req.param('id'), c.var.userId) }))
    .post('/groups/:id/leave', async (c) => {
      const groupId = c.req.param('id');
      await memberOr404(groupId, c.var.userId);
      const { position } = await leaveGroup(commandContext(deps, c), groupId);
      await waitFor(position);
      return c.json({ success: true as const, data: { id: groupId, left: true } });
    })
    .post('/groups/:id/invite-code', async (c) => {
      const groupId = c.req.param('id');
      await memberOr404(groupId, c.var.userId);
      const { position } = await rotateInviteCode(commandContext(deps, c), groupId);
      await waitFor(position);
      return c.json({ success: true as const, data: await detail(groupId, c.var.userId) });
    })
    .get('/groups/:id/leaderboard', async (c) => {
      const groupId = c.req.param('id');
      await memberOr404(groupId, c.var.userId);
      const members = await groupMembers(db, groupId);
      return c.json({ success: true as const, data: leaderboardJson(members, c.var.userId) });
    })
    .get('/groups/:id/challenges', async (c) => {
      const groupId = c.req.param('id');
      await memberOr404(groupId, c.var.userId);
      const week = viewerWeek(deps.clock.now(), await timeZoneOf(db, c.var.userId));
      const figures = await groupChallenges(db, groupId, c.var.userId, await groupMembers(db, groupId), week);
      return c.json({ success: true as const, data: { week_start: week.weekStart, ...figures } });
    })
    .get('/groups/:id/recap', async (c) => {
      const groupId = c.req.param('id');
      const query = parseWith(recapQuerySchema, c.req.query());
      await memberOr404(groupId, c.var.userId);
      const timeZone = await timeZoneOf(db, c.var.userId);
      const weekStart = query.week_start ?? viewerWeek(deps.clock.now(), timeZone).weekStart;
      const members = await groupMembers(db, groupId);
      return c.json({ success: true as const, data: await groupRecap(db, groupId, c.var.userId, members, weekStart, timeZone) });
    });
}
