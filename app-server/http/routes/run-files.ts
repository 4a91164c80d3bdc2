import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { RecordedWith, RunRecorded } from '../../../domain/run/events.ts';
import type { Transaction } from 'kysely';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import type { RunBody } from '../../../domain/validation/run.ts';
import { findCurrentGoal } from '../../../projections/goals/goal-queries.ts';
import { findOwnRun } from '../../../projections/runs/run-queries.ts';
import { logRun } from '../../commands/runs/run-commands.ts';
import { MAX_RUN_FILE_BYTES, RunFileRefused, runFileMessages } from '../../integrations/run-files/messages.ts';
import { parseRunFile } from '../../integrations/run-files/parse-run-file.ts';
import type { RunFile } from '../../integrations/run-files/run-file.ts';
import { type ExportedRun, writeGpx } from '../../integrations/run-files/write-gpx.ts';
import { writeTcx } from '../../integrations/run-files/write-tcx.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { requireUser } from '../middleware/require-user.ts';
import { A_RUN_LEAVES_TO_CATCH_UP, readModelsAt } from '../read-your-writes.ts';
import { commandContext, parseRequest, pathId } from '../request.ts';
import { goalJson } from './goals-json.ts';
import { runsJson } from './runs-json.ts';

export const RUN_IMPORT_PATH = '/runs/import';
/** The multipart envelope around a file of MAX_RUN_FILE_BYTES: boundaries and part headers, generously. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The import's own body limit, mounted in app.ts before the app-wide 2 MB one (which skips this path) and before the
 * check that parses every JSON body: a body past 10 MB is refused with 413 and the sentence, from its Content-Length
 * or as soon as a streamed body passes the limit, without being read or parsed.
 */
export function runImportBodyLimit(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_RUN_FILE_BYTES + ENVELOPE_BYTES,
    onError: () => {
      throw new HttpError(413, runFileMessages.tooLarge);
    },
  });
  return (c, next) => (c.req.method === 'POST' ? limit(c, next) : next());
}

export const exportQuerySchema = z.object({
  format: z.enum(['gpx', 'tcx'], { error: "format must be 'gpx' or 'tcx'" }),
});

/** A run's recording event: its track and the file it came from (null for a run synced without one). */
export async function readRecording(
  store: EventStore<Transaction<object>>,
  runId: string,
): Promise<RunRecorded['data'] | null> {
  const [first] = await store.readStream(streams.run(runId), { maxCount: 1 });
  return first?.type === 'RunRecorded' ? (first.data as RunRecorded['data']) : null;
}

/** A run as a file writes it; null without a track of at least 2 fixes (a summary synced without a map, an erasure). */
export function exportedRun(recording: RunRecorded['data'] | null): ExportedRun | null {
  const positions = Array.isArray(recording?.positions) ? recording.positions : [];
  if (!recording || positions.length < 2) return null;
  const startedAtMs = Date.parse(recording.startedAt);
  return {
    name: `Run on ${recording.startedAt.slice(0, 10)}`,
    startedAtMs,
    durationSec: recording.durationSec,
    distanceKm: recording.distanceKm,
    positions,
    device: recording.recordedWith?.device ?? null,
  };
}

/** The body of POST /runs a file's track makes: it starts at its first fix and lasts until its last. */
function runBodyOf(file: RunFile): RunBody {
  const first = file.positions[0]!;
  const last = file.positions[file.positions.length - 1]!;
  return {
    started_at: new Date(first.timestamp).toISOString(),
    distance_km: 0,
    duration_sec: (last.timestamp - first.timestamp) / 1000,
    source: 'gps',
    gps_data: { positions: [...file.positions] },
    notes: null,
  };
}

/** The uploaded file's bytes (multipart field `file`), or a 4xx with a sentence. */
async function uploadedBytes(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Promise<Uint8Array> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new HttpError(400, runFileMessages.noFile);
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new HttpError(400, runFileMessages.noFile);
  }
  const file = form.get('file');
  if (file === null || typeof file === 'string') throw new HttpError(400, runFileMessages.noFile);
  if (file.size > MAX_RUN_FILE_BYTES) throw new HttpError(413, runFileMessages.tooLarge);
  return new Uint8Array(await file.arrayBuffer());
}

const CONTENT_TYPES = { gpx: 'application/gpx+xml', tcx: 'application/vnd.garmin.tcx+xml' } as const;

/**
 * Watch files (issue 24): import a GPX, TCX or FIT file as a run, export one of your runs as GPX 1.1 or TCX.
 * An imported file goes the way of POST /runs (logRun): a track uploaded after the fact, judged by the run policy as
 * one (docs/run-policy.md), named by its recording, so the same file twice — or a file of a run already saved — is
 * one run. A file refused (not a run file, damaged, hostile, too large) is answered 4xx with a sentence and nothing is
 * saved: the file is read whole before any command runs.
 */
export function runFilesRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  return new Hono<AppEnv>()
    .post(RUN_IMPORT_PATH, guard, async (c) => {
      const bytes = await uploadedBytes(c);
      let file: RunFile;
      try {
        file = parseRunFile(bytes);
      } catch (error) {
        if (error instanceof RunFileRefused) throw new HttpError(error.status, error.sentence);
        throw error;
      }
      const context = commandContext(deps, c);
      const origin: RecordedWith = { format: file.format, creator: file.creator, device: file.device };
      const { runId, position } = await logRun(context, runBodyOf(file), origin);
      const wait = await readModelsAt(c, deps.projections, position, {
        leavesToCatchUp: A_RUN_LEAVES_TO_CATCH_UP,
        status: 201,
        data: { id: runId },
      });
      if (!wait.ready) return wait.answer;
      const run = await findOwnRun(db, context.userId, runId);
      if (!run) throw new HttpError(404, 'Run not found');
      const now = deps.clock.now();
      const goal = await findCurrentGoal(db, context.userId, now);
      const [data] = await runsJson(db, context.userId, [run]);
      const recording = await readRecording(deps.store, runId);
      return c.json(
        {
          success: true as const,
          data: { ...data!, recorded_with: recording?.recordedWith ?? null },
          goal: goal ? goalJson(goal, now) : null,
        },
        201,
      );
    })
    .get('/runs/:id/export', guard, async (c) => {
      const id = pathId(c);
      const { format } = parseRequest(exportQuerySchema, c.req.query());
      const run = await findOwnRun(db, c.var.userId, id);
      if (!run) throw new HttpError(404, 'Run not found');
      const exported = exportedRun(await readRecording(deps.store, id));
      if (!exported) throw new HttpError(422, 'This run has no GPS track to export.');
      const body = format === 'gpx' ? writeGpx(exported) : writeTcx(exported);
      const name = `stridestake-run-${new Date(exported.startedAtMs).toISOString().slice(0, 10)}-${id.slice(0, 8)}.${format}`;
      return c.body(body, 200, {
        'content-type': `${CONTENT_TYPES[format]}; charset=utf-8`,
        'content-disposition': `attachment; filename="${name}"`,
        'cache-control': 'private, no-store',
      });
    });
}
