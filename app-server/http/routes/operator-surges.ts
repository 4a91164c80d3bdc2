import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  cancelCommand,
  operatorSurgeJson,
  readSurgeSchedule,
  runSurgeCommand,
  scheduleCommand,
  scheduleSurgeBody,
} from '../../operator/surge-schedule.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { readModelsAt } from '../read-your-writes.ts';
import { recordingWrites } from '../request-writes.ts';
import { noQuery, parseRequest, readJson } from '../request.ts';

export const OPERATOR_SURGES_PATH = '/api/operator/surges';

/** A surge id in a path: the CLI's are UUIDs, older ones any short name. */
export const OperatorSurgeIdParam = z.object({
  id: z.string().min(1, { message: 'id: must not be empty' }).max(100, { message: 'id: at most 100 characters' }),
});

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * The operator's bearer token, compared in constant time (both sides hashed first, so neither the length nor a
 * common prefix shows in the timing). No OPERATOR_TOKEN configured: every operator route is refused (403).
 */
export function requireOperator(operatorToken: string | undefined): MiddlewareHandler<AppEnv> {
  const expected = operatorToken === undefined ? null : sha256(operatorToken);
  return async (c, next) => {
    if (!expected) throw new HttpError(403, 'Operator routes are off: the server has no OPERATOR_TOKEN');
    const header = c.req.header('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!token) throw new HttpError(401, 'Operator token required (Authorization: Bearer <OPERATOR_TOKEN>)');
    if (!timingSafeEqual(sha256(token), expected)) throw new HttpError(403, 'Wrong operator token');
    await next();
  };
}

/**
 * The operator's surge schedule on a running server (what `npm run surge` does on the database, for when the server
 * holds it): schedule, list, cancel, behind OPERATOR_TOKEN. A scheduled surge answers once GET /surge/* shows it.
 */
export function operatorSurgeRoutes(deps: AppDeps) {
  const operator = requireOperator(deps.config.OPERATOR_TOKEN);
  return new Hono<AppEnv>()
    .post(OPERATOR_SURGES_PATH, operator, async (c) => {
      const body = parseRequest(scheduleSurgeBody, await readJson(c));
      const now = deps.clock.now();
      const { events, position } = await runSurgeCommand(
        recordingWrites(c, deps.store),
        scheduleCommand(body, now),
        now,
      );
      const scheduled = events.find((e) => e.type === 'SurgeScheduled');
      if (scheduled?.type !== 'SurgeScheduled') throw new HttpError(500, 'The surge was not scheduled');
      const d = scheduled.data;
      const data = operatorSurgeJson(
        { surgeId: d.surgeId, xpMultiplier: d.xpMultiplier, startsAt: d.startsAt, endsAt: d.endsAt, canceledAt: null },
        now.toISOString(),
      );
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: { id: data.id } });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data }, 201);
    })
    .get(OPERATOR_SURGES_PATH, operator, async (c) => {
      parseRequest(noQuery, c.req.query());
      const now = deps.clock.now().toISOString();
      const surges = await readSurgeSchedule(deps.store);
      return c.json({ success: true as const, data: surges.map((s) => operatorSurgeJson(s, now)) });
    })
    .delete(`${OPERATOR_SURGES_PATH}/:id`, operator, async (c) => {
      const { id } = parseRequest(OperatorSurgeIdParam, { id: c.req.param('id') });
      const now = deps.clock.now();
      const { position } = await runSurgeCommand(recordingWrites(c, deps.store), cancelCommand(id, now), now);
      const wait = await readModelsAt(c, deps.projections, position, { status: 200, data: { id } });
      if (!wait.ready) return wait.answer;
      const surge = (await readSurgeSchedule(deps.store)).find((s) => s.surgeId === id);
      return c.json({ success: true as const, data: surge ? operatorSurgeJson(surge, now.toISOString()) : { id } });
    });
}
