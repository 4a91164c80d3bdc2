import { Hono } from 'hono';
import { patchRunBodySchema, runBodySchema } from '../../../domain/validation/run.ts';
import { gpsFinishBodySchema, gpsStartBodySchema, runListQuerySchema } from '../../../domain/validation/lists.ts';
import { findCurrentGoal } from '../../../projections/goals/goal-queries.ts';
import { decodeRunCursor, encodeRunCursor, findOwnRun, listRuns } from '../../../projections/runs/run-queries.ts';
import { requireUser } from '../../auth/guard.ts';
import { finishTracking, startTracking } from '../../commands/runs/gps-tracking.ts';
import { changeRun, logRun } from '../../commands/runs/run-commands.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { commandContext, parseWith, readJson } from './goals-input.ts';
import { goalJson } from './goals-json.ts';
import { runJson } from './runs-json.ts';

/**
 * Runs (§7): log a GPS run, a server-side tracking session (start / finish), the user's runs newest first with an
 * opaque cursor, notes, delete. A saved run answers with the run (and its verdict) and the current goal as it
 * stands with the run counted, so the client can show the goal-complete celebration when `percentage` ≥ 100 (§4).
 */
export function runsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const savedRun = async (userId: string, runId: string) => {
    const run = await findOwnRun(db, userId, runId);
    if (!run) throw new HttpError(404, 'Run not found');
    const now = deps.clock.now();
    const goal = await findCurrentGoal(db, userId, now);
    return { success: true as const, data: runJson(run), goal: goal ? goalJson(goal, now) : null };
  };
  return new Hono<AppEnv>()
    .use('/runs', guard)
    .use('/runs/*', guard)
    .post('/runs', async (c) => {
      const body = parseWith(runBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const { runId, position } = await logRun(context, body);
      await deps.projections.waitFor(position);
      return c.json(await savedRun(context.userId, runId), 201);
    })
    .post('/runs/gps/start', async (c) => {
      parseWith(gpsStartBodySchema, await readJson(c));
      const { sessionId, startedAt } = await startTracking(commandContext(deps, c));
      return c.json({ success: true as const, data: { session_id: sessionId, started_at: startedAt } }, 201);
    })
    .post('/runs/gps/finish', async (c) => {
      const body = parseWith(gpsFinishBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const { runId, position } = await finishTracking(context, {
        sessionId: body.session_id ?? null,
        positions: body.positions,
        durationSec: body.duration_sec ?? null,
        notes: body.notes,
        discard: body.discard,
      });
      if (position) await deps.projections.waitFor(position);
      if (runId === null) return c.json({ success: true as const, data: null, goal: null });
      return c.json(await savedRun(context.userId, runId), 201);
    })
    .get('/runs', async (c) => {
      const query = parseWith(runListQuerySchema, c.req.query());
      const cursor = query.cursor === undefined ? null : decodeRunCursor(query.cursor);
      if (query.cursor !== undefined && cursor === null) throw new HttpError(400, 'Invalid cursor');
      const page = await listRuns(db, c.var.userId, { limit: query.limit, cursor, since: query.since ?? null });
      return c.json({
        success: true as const,
        data: page.runs.map(runJson),
        next_cursor: page.next ? encodeRunCursor(page.next) : null,
      });
    })
    .patch('/runs/:id', async (c) => {
      const body = parseWith(patchRunBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const id = c.req.param('id');
      const { position } = await changeRun(context, id, { type: 'EditNotes', notes: body.notes });
      if (position) await deps.projections.waitFor(position);
      const run = await findOwnRun(db, context.userId, id);
      if (!run) throw new HttpError(404, 'Run not found');
      return c.json({ success: true as const, data: runJson(run) });
    })
    .delete('/runs/:id', async (c) => {
      const context = commandContext(deps, c);
      const id = c.req.param('id');
      const { position } = await changeRun(context, id, { type: 'DeleteRun' });
      if (position) await deps.projections.waitFor(position);
      return c.json({ success: true as const, data: { id, deleted: true } });
    });
}
