import { Hono } from 'hono';
import { patchRunBodySchema, runBodySchema } from '../../../domain/validation/run.ts';
import { runBodyFast } from '../../../domain/validation/run-body-fast.ts';
import {
  gpsFinishBodySchema,
  gpsPositionsBodySchema,
  gpsStartBodySchema,
  runListQuerySchema,
} from '../../../domain/validation/lists.ts';
import { decodeRunCursor, encodeRunCursor, findOwnRun, listRuns } from '../../../projections/runs/run-queries.ts';
import type { GpsPosition } from '../../../domain/run/geo.ts';
import { thinTrack } from '../../../domain/run/thin-track.ts';
import { requireUser } from '../middleware/require-user.ts';
import { finishTracking, refusalOf, startTracking, uploadFixes } from '../../commands/runs/gps-tracking.ts';
import { KeyedGroup } from '../../commands/idempotency/keyed-request.ts';
import { changeRun, type LoggedRun, logRunsTogether, type RunToLog } from '../../commands/runs/run-commands.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { cachedRead } from '../read-cache.ts';
import { A_RUN_LEAVES_TO_CATCH_UP, readModelsAt } from '../read-your-writes.ts';
import { runsJson } from './runs-json.ts';
import { savedRunAnswers } from './saved-runs.ts';
import { readRecording } from './run-files.ts';
import { commandContext, keyedRequest, parseRequest, pathId, readJson } from '../request.ts';

const RUN_NOT_FOUND = 'Run not found';
/**
 * The most runs saved in one transaction (group commit: commands/group-commit.ts). Runs posted while a group is being
 * saved go with the next one; a bound keeps one group's transaction short and what a failed group sends again small.
 */
const RUNS_PER_GROUP = 32;
/** The most fixes GET /runs/{id} sends for drawing a run (thinned evenly beyond it). */
const TRACK_FIXES = 1_500;

/**
 * Runs (§7): log a GPS run, a server-side tracking session (start / finish), the user's runs newest first with an
 * opaque cursor, one run with its track (for the map), notes, delete. A saved run answers with the run (and its verdict) and the current goal as it
 * stands with the run counted, so the client can show the goal-complete celebration when `percentage` ≥ 100 (§4).
 * The creating routes take an `Idempotency-Key`: a retry with the same key answers with the run it saved.
 */
export function runsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  // This app's queue of runs being saved (one per app: tests build many).
  const runGroup = new KeyedGroup<RunToLog, LoggedRun>(
    deps.database,
    (tx, members) => logRunsTogether(tx, deps.store, members),
    RUNS_PER_GROUP,
  );
  // A saved run's answer, read with the answers of the runs saved beside it (saved-runs.ts).
  const savedRun = savedRunAnswers(db, deps.clock, deps.readCache ?? null);
  return new Hono<AppEnv>()
    .post('/runs', guard, async (c) => {
      const raw = await readJson(c);
      // The usual GPS body without zod walking every fix (run-body-fast.ts); anything else, and every refusal, by zod.
      const body = runBodyFast(raw) ?? parseRequest(runBodySchema, raw);
      const context = commandContext(deps, c);
      const keyed = await keyedRequest(deps, c, raw);
      // Saved with the runs posted meanwhile, in one transaction; a retry with its key answers the run it saved, and
      // a run saved under its key's id before runs were named by their recording is found (legacy-keyed-ids.ts).
      const { runId, position } = await keyed.inGroup(runGroup, { context, body, recordedWith: null });
      const wait = await readModelsAt(c, deps.projections, position, {
        leavesToCatchUp: A_RUN_LEAVES_TO_CATCH_UP,
        status: 201,
        data: { id: runId },
      });
      if (!wait.ready) return wait.answer;
      return c.json(await savedRun(context.userId, runId, Date.parse(body.started_at)), 201);
    })
    .post('/runs/gps/start', guard, async (c) => {
      const raw = await readJson(c);
      parseRequest(gpsStartBodySchema, raw);
      const context = commandContext(deps, c);
      const keyed = await keyedRequest(deps, c, raw);
      const { sessionId, startedAt } = await keyed.once((tx) => startTracking(context, tx));
      return c.json({ success: true as const, data: { session_id: sessionId, started_at: startedAt } }, 201);
    })
    .post('/runs/gps/positions', guard, async (c) => {
      const body = parseRequest(gpsPositionsBodySchema, await readJson(c));
      const { received } = await uploadFixes(commandContext(deps, c), {
        sessionId: body.session_id,
        positions: body.positions,
      });
      return c.json({ success: true as const, data: { session_id: body.session_id, received } });
    })
    .post('/runs/gps/finish', guard, async (c) => {
      const raw = await readJson(c);
      const body = parseRequest(gpsFinishBodySchema, raw);
      const context = commandContext(deps, c);
      const keyed = await keyedRequest(deps, c, raw);
      const input = {
        sessionId: body.session_id ?? null,
        positions: body.positions,
        durationSec: body.duration_sec ?? null,
        notes: body.notes,
        discard: body.discard,
      };
      // A finish that saved no run still ended the session (committed, recorded): its refusal is answered after.
      const { runId, position } = refusalOf(await keyed.once((tx) => finishTracking(context, input, tx)));
      const wait = await readModelsAt(c, deps.projections, position, {
        leavesToCatchUp: A_RUN_LEAVES_TO_CATCH_UP,
        status: 201,
        data: { id: runId },
      });
      if (!wait.ready) return wait.answer;
      if (runId === null) return c.json({ success: true as const, data: null, goal: null });
      return c.json(await savedRun(context.userId, runId), 201);
    })
    .get('/runs', guard, async (c) => {
      const query = parseRequest(runListQuerySchema, c.req.query());
      const cursor = query.cursor === undefined ? null : decodeRunCursor(query.cursor);
      if (query.cursor !== undefined && cursor === null) throw new HttpError(400, 'Invalid cursor');
      const userId = c.var.userId;
      const options = { limit: query.limit, cursor, since: query.since ?? null };
      // Nothing in a page of runs moves with the clock: the answer itself is cached, per page asked (read-cache.ts).
      // Its verdicts read the user's goals too (what a run counts toward).
      const answer = await cachedRead(
        deps.readCache,
        { userId, read: 'runs', query: JSON.stringify(options), topics: ['runs', 'goals'] },
        async () => {
          const page = await listRuns(db, userId, options);
          const data = await runsJson(db, userId, page.runs);
          return { value: { data, next_cursor: page.next ? encodeRunCursor(page.next) : null } };
        },
      );
      return c.json({ success: true as const, ...answer });
    })
    .get('/runs/:id', guard, async (c) => {
      const id = pathId(c);
      const run = await findOwnRun(db, c.var.userId, id);
      if (!run) throw new HttpError(404, RUN_NOT_FOUND);
      const [data] = await runsJson(db, c.var.userId, [run]);
      // The route map, splits and pace chart of the run detail view: a drawing needs no more than this many fixes.
      const recording = await readRecording(deps.store, id);
      // Null once the owner's personal data was erased (the fields read as null).
      const track: readonly GpsPosition[] = Array.isArray(recording?.positions) ? recording.positions : [];
      const positions = thinTrack(track, TRACK_FIXES);
      return c.json({
        success: true as const,
        // recorded_with: the watch file the run was imported from (POST /runs/import), null for any other run.
        data: {
          ...data!,
          gps_data: positions.length > 1 ? { positions } : null,
          recorded_with: recording?.recordedWith ?? null,
        },
      });
    })
    .patch('/runs/:id', guard, async (c) => {
      const body = parseRequest(patchRunBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const id = pathId(c);
      // Absent notes are left as they are (`{}` changes nothing); null or blank clears them.
      if (body.notes !== undefined) {
        const { position } = await changeRun(context, id, { type: 'EditNotes', notes: body.notes });
        const wait = await readModelsAt(c, deps.projections, position, {
          leavesToCatchUp: A_RUN_LEAVES_TO_CATCH_UP,
          status: 200,
          data: { id },
        });
        if (!wait.ready) return wait.answer;
      }
      const run = await findOwnRun(db, context.userId, id);
      if (!run) throw new HttpError(404, RUN_NOT_FOUND);
      const [data] = await runsJson(db, context.userId, [run]);
      return c.json({ success: true as const, data: data! });
    })
    .delete('/runs/:id', guard, async (c) => {
      const context = commandContext(deps, c);
      const id = pathId(c);
      const { position } = await changeRun(context, id, { type: 'DeleteRun' });
      const deleted = { id, deleted: true };
      const wait = await readModelsAt(c, deps.projections, position, {
        leavesToCatchUp: A_RUN_LEAVES_TO_CATCH_UP,
        status: 200,
        data: deleted,
      });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: deleted });
    });
}
