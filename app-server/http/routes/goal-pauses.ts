import { Hono } from 'hono';
import { Temporal } from 'temporal-polyfill';
import { earliestPausableWeek } from '../../../domain/goal/pause-horizon.ts';
import { goalErrors } from '../../../domain/goal/messages.ts';
import { addDays } from '../../../domain/gamification/dates.ts';
import { pauseWeekBodySchema, pauseWeekStartSchema } from '../../../domain/validation/goal-pause.ts';
import type { GoalPauseRow } from '../../../projections/goal-pauses/goal-pauses-projector.ts';
import { listPauses } from '../../../projections/goal-pauses/pause-queries.ts';
import { userTimeZone } from '../../auth/user-time-zone.ts';
import { cancelWeekPause, pauseWeek } from '../../commands/goals/week-pauses.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { httpErrorFromDomain } from '../errors.ts';
import { requireUser } from '../middleware/require-user.ts';
import { readModelsAt } from '../read-your-writes.ts';
import { commandContext, parseRequest, readJson } from '../request.ts';

/** A pause as the API shows it; `cancelable` until its week begins (domain/goal/week-pauses.ts). */
export function pauseJson(row: GoalPauseRow, now: Date) {
  return {
    week_start: row.week_start,
    week_end: addDays(row.week_start, 6),
    time_zone: row.time_zone,
    reason: row.reason,
    week_starts_at: row.week_starts_at.toISOString(),
    week_ends_at: row.week_ends_at.toISOString(),
    paused_at: row.paused_at.toISOString(),
    cancelable: row.week_starts_at.getTime() > now.getTime(),
  };
}

/**
 * Pauses with notice (issue 25): pause a week at least 7 days ahead, list one's pauses, cancel one before its week
 * begins. Mounted before /goals/:id, whose pattern would otherwise take /goals/pauses. Every read and write is by the
 * signed-in user's id: another runner's pause is never listed and canceling it is a 404.
 */
export function goalPausesRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const ownPause = async (userId: string, weekStart: string) =>
    (await listPauses(db, userId)).find((p) => p.week_start === weekStart);
  return new Hono<AppEnv>()
    .post('/goals/pauses', guard, async (c) => {
      const body = parseRequest(pauseWeekBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const timeZone = await userTimeZone(db, context.userId);
      const { position } = await pauseWeek(context, { weekStart: body.week_start, reason: body.reason }, timeZone);
      const answer = { week_start: body.week_start };
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: answer });
      if (!wait.ready) return wait.answer;
      const pause = await ownPause(context.userId, body.week_start);
      if (!pause) throw httpErrorFromDomain(goalErrors.pauseNotFound());
      return c.json({ success: true as const, data: pauseJson(pause, context.now) }, 201);
    })
    .get('/goals/pauses', guard, async (c) => {
      const now = deps.clock.now();
      const timeZone = await userTimeZone(db, c.var.userId);
      const pauses = await listPauses(db, c.var.userId);
      return c.json({
        success: true as const,
        data: pauses.map((p) => pauseJson(p, now)),
        earliest_week_start: earliestPausableWeek(Temporal.Instant.fromEpochMilliseconds(now.getTime()), timeZone),
      });
    })
    .delete('/goals/pauses/:week_start', guard, async (c) => {
      const weekStart = parseRequest(pauseWeekStartSchema, c.req.param('week_start'));
      const context = commandContext(deps, c);
      const { position } = await cancelWeekPause(context, weekStart);
      const canceled = { week_start: weekStart, canceled: true };
      const wait = await readModelsAt(c, deps.projections, position, { status: 200, data: canceled });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: canceled });
    });
}
