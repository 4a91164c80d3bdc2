import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { runDecider } from '../../../domain/run/decide.ts';
import { runErrors } from '../../../domain/run/messages.ts';
import type { HealthSource, RecordedWith, RunEvent } from '../../../domain/run/events.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import { importedRunId } from '../../../domain/run/import-stream.ts';
import { MAX_LOGGED_RUN_AGE_DAYS } from '../../../domain/run/policy.ts';
import type { RunState } from '../../../domain/run/state.ts';
import type { LogPosition, RecordedEvent } from '../../../domain/shared/event-store.ts';
import type { RunBody } from '../../../domain/validation/run.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand } from '../execute-command.ts';
import { inTransaction, instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { recordingRunId } from './recording-id.ts';
import { uploadWeek } from './upload-week.ts';
import { streams } from '../../../domain/shared/streams.ts';

type Tx = Transaction<object>;

/** The week's limits for an upload after the fact (upload-week.ts), as LogGpsRun takes them. */
async function uploadLimits(
  context: UserCommandContext,
  startedAt: Temporal.Instant,
  tx: Tx,
  goalIndex: readonly RecordedEvent[],
) {
  const week = await uploadWeek(context, startedAt, goalIndex, tx);
  return { weekSettled: week === 'settled', evidenceForStake: week === 'evidence' };
}

/**
 * POST /runs: a run tracked with the app's GPS and uploaded whole after it ended. The distance is recomputed from
 * the track by the decider (the client's `distance_km` is not trusted) and the run gets its verification verdict
 * there; an upload cannot reach more than 7 days back nor into a settled week. The run's id is its recording's
 * (recording-id.ts): the same track sent again — a retry with or without an Idempotency-Key, a copy racing the first,
 * an offline queue's resend days later — lands on the same stream and answers with the run saved first (201, as a
 * keyed retry does); a recording whose run was deleted is refused (409 `run_deleted`). The stream is the claim: the
 * run is read and, when new, appended with `no_stream` in one transaction (`tx`, or one of its own), and a copy that
 * lost the race runs again (executeInTransaction) and finds the run. A watch file imported (POST /runs/import) comes
 * this same way with `recordedWith`, the file's origin: a file is a track uploaded after the fact, judged as one
 * (docs/run-policy.md), and the same recording imported twice is the same run.
 */
export async function logRun(
  context: UserCommandContext,
  body: RunBody,
  recordedWith: RecordedWith | null = null,
  tx?: Tx,
): Promise<{ runId: string; position: LogPosition }> {
  const source = body.source;
  if (source !== 'gps') return inTransaction(context, tx, (t) => importWorkout(context, body, source, t));
  const positions = body.gps_data.positions;
  const runId = recordingRunId(context.userId, positions);
  const startedAt = Temporal.Instant.from(body.started_at);
  return inTransaction(context, tx, async (transaction) => {
    const { saved, goalIndex } = await runAndGoalIndex(context, runId, transaction);
    if (saved) return saved;
    const result = await executeCommand(
      context.store,
      runDecider,
      streams.run(runId),
      {
        type: 'LogGpsRun',
        runId,
        userId: context.userId,
        startedAt,
        durationSec: body.duration_sec,
        positions,
        notes: body.notes,
        ...(await uploadLimits(context, startedAt, transaction, goalIndex)),
        live: false,
        recordedWith,
        now: instantOf(context),
      },
      userMetadata(context),
      { transaction, load: aNewRun },
    );
    if (!result.append) throw new Error('LogGpsRun appended nothing');
    return { runId, position: result.append.position };
  });
}

/**
 * The run's stream and the runner's goal index (the week limits of upload-week.ts), in one read: whether the recording
 * (or health workout) made a run already, and what an upload after the fact may do.
 */
async function runAndGoalIndex(context: UserCommandContext, runId: string, tx: Tx) {
  const [run, goals] = [streams.run(runId), streams.userGoals(context.userId)];
  const read = await context.store.readStreams([run, goals], { transaction: tx });
  return { saved: savedRun(runId, read.get(run) ?? []), goalIndex: read.get(goals) ?? [] };
}

/**
 * The run a recording (or a health workout) made already, with the head of its stream to wait for; null when there
 * is none. Its run deleted, the recording is refused (409 `run_deleted`): it stays deleted.
 */
function savedRun(runId: string, history: readonly RecordedEvent[]): { runId: string; position: LogPosition } | null {
  const head = history[history.length - 1]?.position;
  if (!head) return null;
  const state = foldEvents(
    runDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as RunEvent),
  );
  if (state.status === 'deleted') throw new DomainRefusal(runErrors.recordingDeleted());
  return { runId, position: head };
}

/**
 * The state of a run stream that runSaved has just read, in the same transaction, and found empty: the command
 * decides on it without reading the stream a second time. Another copy of the recording appending meanwhile fails
 * the append (`no_stream`), and the transaction runs again and finds that run.
 */
const aNewRun = async () => ({ state: runDecider.initialState, expectedVersion: 'no_stream' as const });

/**
 * The run a keyed POST /runs made while run ids were the key's (before runs were named by their recording), so an
 * offline queue resending such a request with its key gets that run back rather than a second one (the keyed
 * request's `before`, idempotency/keyed-request.ts).
 */
export async function runSavedUnderKey(
  context: UserCommandContext,
  legacyRunId: string,
  tx: Tx,
): Promise<{ runId: string; position: LogPosition } | null> {
  const [last] = await context.store.readStream(streams.run(legacyRunId), {
    direction: 'backwards',
    maxCount: 1,
    transaction: tx,
  });
  return last ? { runId: legacyRunId, position: last.position } : null;
}

/** Another user's run, or a deleted one, answers 404 like a run that does not exist. */
function ownRun(state: RunState, userId: string): void {
  if (state.status !== 'recorded' || state.run.userId !== userId) throw new DomainRefusal(runErrors.notFound());
}

/** PATCH /runs/{id} (notes) and DELETE /runs/{id}. Returns the position to wait for (null: nothing changed). */
export async function changeRun(
  context: UserCommandContext,
  runId: string,
  change: { type: 'EditNotes'; notes: string | null } | { type: 'DeleteRun' },
): Promise<{ position: LogPosition | null }> {
  const now = instantOf(context);
  const result = await executeCommand(
    context.store,
    runDecider,
    streams.run(runId),
    (state) => {
      ownRun(state, context.userId);
      return change.type === 'EditNotes'
        ? { type: 'EditNotes' as const, userId: context.userId, notes: change.notes, now }
        : { type: 'DeleteRun' as const, userId: context.userId, now };
    },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}

/**
 * POST /runs with source `health_connect` / `apple_health`: a running workout from the phone's health store (the
 * native shell's import). Without a route it is the run decider's ImportRun (the store's distance, no track: XP and
 * free goals only, never a stake); with its route (where the runner shares it) it is a track uploaded after the fact,
 * LogGpsRun not live, exactly as a watch file: measured from its fixes, counted toward a stake only when it arrives
 * within 2 hours of the workout's end, later `uploaded_late` (docs/run-policy.md). Either way it is held to the rules
 * of an upload after the fact: at most 7 days back and never into a week that may be settled. The workout id is the
 * phone's word, so the run is named by the user and that id: the same workout posted again (the import runs again, a
 * retry, with or without its route) answers with the run saved first, and one runner's id never names another's run.
 * A workout whose run was deleted is refused (409 `run_deleted`).
 */
async function importWorkout(
  context: UserCommandContext,
  body: RunBody,
  source: HealthSource,
  tx: Tx,
): Promise<{ runId: string; position: LogPosition }> {
  const importId = body.import_id ?? '';
  const runId = importedRunId(source, `${context.userId}-${importId}`);
  const stream = streams.run(runId);
  const startedAt = Temporal.Instant.from(body.started_at);
  const now = instantOf(context);
  const { saved, goalIndex } = await runAndGoalIndex(context, runId, tx);
  if (saved) return saved;
  const week = await uploadWeek(context, startedAt, goalIndex, tx);
  const cutoff = now.subtract({ hours: 24 * MAX_LOGGED_RUN_AGE_DAYS });
  if (week !== 'evidence' && startedAt.epochMilliseconds < cutoff.epochMilliseconds)
    throw new DomainRefusal(runErrors.tooOld(MAX_LOGGED_RUN_AGE_DAYS));
  if (week === 'settled') throw new DomainRefusal(runErrors.weekSettled());
  const route = body.gps_data.positions;
  const command =
    route.length > 0
      ? {
          type: 'LogGpsRun' as const,
          runId,
          userId: context.userId,
          startedAt,
          durationSec: body.duration_sec,
          positions: route,
          notes: body.notes,
          weekSettled: false,
          evidenceForStake: week === 'evidence',
          live: false,
          healthWorkout: { source, importId },
          now,
        }
      : {
          type: 'ImportRun' as const,
          runId,
          userId: context.userId,
          source,
          importId,
          startedAt,
          distanceKm: body.distance_km,
          durationSec: body.duration_sec,
          elapsedSec: body.duration_sec,
          positions: [],
          flags: { manual: false, trainer: false, flagged: false, sportType: 'Run' },
          notes: body.notes,
          now,
        };
  const result = await executeCommand(context.store, runDecider, stream, command, userMetadata(context), {
    transaction: tx,
    load: aNewRun,
  });
  if (!result.append) throw new Error(`${command.type} appended nothing`);
  return { runId, position: result.append.position };
}
