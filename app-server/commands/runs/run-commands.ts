import { Temporal } from 'temporal-polyfill';
import { isSettledWeek, userGoalsDecider, type UserGoalsEvent } from '../../../domain/goal/user-goals.ts';
import { runDecider } from '../../../domain/run/decide.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import { runErrors } from '../../../domain/run/messages.ts';
import type { HealthSource, RecordedWith } from '../../../domain/run/events.ts';
import { importedRunId } from '../../../domain/run/import-stream.ts';
import { MAX_LOGGED_RUN_AGE_DAYS } from '../../../domain/run/policy.ts';
import type { RunState } from '../../../domain/run/state.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import type { RunBody } from '../../../domain/validation/run.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand, loadAggregate } from '../execute-command.ts';
import { instantOf, newAggregateId, type UserCommandContext, userMetadata } from '../command-context.ts';
import { earlierExecution, oncePerKey } from '../idempotency/once-per-key.ts';
import { recordingRunId } from './recording-id.ts';
import { streams } from '../../../domain/shared/streams.ts';

/** Whether the user has a goal whose week holds `startedAt` and may already be settled (user-goals.ts). */
async function weekSettled(context: UserCommandContext, startedAt: Temporal.Instant): Promise<boolean> {
  const history = await context.store.readStream(streams.userGoals(context.userId));
  const index = foldEvents(
    userGoalsDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as UserGoalsEvent),
  );
  return isSettledWeek(index, startedAt, instantOf(context));
}

/**
 * POST /runs: a run tracked with the app's GPS and uploaded whole after it ended. The distance is recomputed from
 * the track by the decider (the client's `distance_km` is not trusted) and the run gets its verification verdict
 * there; an upload cannot reach more than 7 days back nor into a settled week. The run's id is its recording's
 * (recording-id.ts): the same track sent again — a retry with or without an Idempotency-Key, a copy racing the first,
 * an offline queue's resend days later — lands on the same stream and answers with the run saved first (201, as a
 * keyed retry does); a recording whose run was deleted is refused (409 `run_deleted`). A watch file imported
 * (POST /runs/import) comes this same way with `recordedWith`, the file's origin: a file is a track uploaded after
 * the fact, judged as one (docs/run-policy.md), and the same recording imported twice is the same run.
 */
export async function logRun(
  context: UserCommandContext,
  body: RunBody,
  recordedWith: RecordedWith | null = null,
): Promise<{ runId: string; position: LogPosition }> {
  if (body.source !== 'gps') return importWorkout(context, body, body.source);
  const runId = recordingRunId(context.userId, body.gps_data.positions);
  const startedAt = Temporal.Instant.from(body.started_at);
  const legacy = await runOfKeyBeforeRecordingIds(context);
  if (legacy) return legacy;
  return oncePerKey(
    context,
    { recorded: streams.run(runId) },
    async () => {
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
          positions: body.gps_data.positions,
          notes: body.notes,
          weekSettled: await weekSettled(context, startedAt),
          live: false,
          recordedWith,
          now: instantOf(context),
        },
        userMetadata(context),
      );
      if (!result.append) throw new Error('LogGpsRun appended nothing');
      return { runId, position: result.append.position };
    },
    async ({ head }) => {
      const { state } = await loadAggregate(context.store, runDecider, streams.run(runId));
      if (state.status === 'deleted') throw new DomainRefusal(runErrors.recordingDeleted());
      return { runId, position: head };
    },
  );
}

/**
 * The run a keyed POST /runs made while run ids were the key's (before runs were named by their recording), so an
 * offline queue resending such a request with its key still gets that run back rather than a second one.
 */
async function runOfKeyBeforeRecordingIds(
  context: UserCommandContext,
): Promise<{ runId: string; position: LogPosition } | null> {
  if (!context.idempotency) return null;
  const runId = newAggregateId(context);
  const earlier = await earlierExecution(context, { created: streams.run(runId) });
  return earlier ? { runId, position: earlier.head } : null;
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
 * native shell's import). It is the run decider's ImportRun (the store's distance, no track: XP and free goals
 * only, never a stake, docs/run-policy.md) held to the rules of an upload after the fact: at most 7 days back and
 * never into a week that may be settled. The workout id is the phone's word, so the run is named by the user and
 * that id: the same workout posted again (the import runs again, a retry) answers with the run saved first, and one
 * runner's id never names another's run. A workout whose run was deleted is refused (409 `run_deleted`).
 */
async function importWorkout(
  context: UserCommandContext,
  body: RunBody,
  source: HealthSource,
): Promise<{ runId: string; position: LogPosition }> {
  const importId = body.import_id ?? '';
  const runId = importedRunId(source, `${context.userId}-${importId}`);
  const stream = streams.run(runId);
  const startedAt = Temporal.Instant.from(body.started_at);
  const now = instantOf(context);
  const earlierRun = async (): Promise<{ runId: string; position: LogPosition }> => {
    const history = await context.store.readStream(stream);
    const head = history[history.length - 1]?.position;
    const { state } = await loadAggregate(context.store, runDecider, stream);
    if (!head || state.status === 'deleted') throw new DomainRefusal(runErrors.recordingDeleted());
    return { runId, position: head };
  };
  return oncePerKey(
    context,
    { recorded: stream },
    async () => {
      if (startedAt.epochMilliseconds < now.subtract({ hours: 24 * MAX_LOGGED_RUN_AGE_DAYS }).epochMilliseconds)
        throw new DomainRefusal(runErrors.tooOld(MAX_LOGGED_RUN_AGE_DAYS));
      if (await weekSettled(context, startedAt)) throw new DomainRefusal(runErrors.weekSettled());
      const result = await executeCommand(
        context.store,
        runDecider,
        stream,
        {
          type: 'ImportRun',
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
        },
        userMetadata(context),
      );
      // Nothing appended: a twin of this request saved the run a moment ago.
      return result.append ? { runId, position: result.append.position } : earlierRun();
    },
    () => earlierRun(),
  );
}
