import { isLeft } from 'fp-ts/lib/Either.js';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { runDecider } from '../../../domain/run/decide.ts';
import { runErrors } from '../../../domain/run/messages.ts';
import type { RunCommand } from '../../../domain/run/commands.ts';
import type { RecordedWith, RunEvent } from '../../../domain/run/events.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import { importedRunId } from '../../../domain/run/import-stream.ts';
import { MAX_LOGGED_RUN_AGE_DAYS } from '../../../domain/run/policy.ts';
import type { RunState } from '../../../domain/run/state.ts';
import type { EventStore, LogPosition, RecordedEvent, StreamAppend } from '../../../domain/shared/event-store.ts';
import type { RunBody } from '../../../domain/validation/run.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { toNewEvent } from '../event-metadata.ts';
import { executeCommand } from '../execute-command.ts';
import type { AppendedWrites, Committed, Settled } from '../group-commit.ts';
import { inTransaction, instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { recordingRunId } from './recording-id.ts';
import { uploadWeek } from './upload-week.ts';
import { streams } from '../../../domain/shared/streams.ts';

type Tx = Transaction<object>;

/** A run to save: POST /runs's body (a GPS track, or a health workout), and the watch file it came from, if any. */
export interface RunToLog {
  readonly context: UserCommandContext;
  readonly body: RunBody;
  readonly recordedWith: RecordedWith | null;
}

/** A saved run (or the one its recording or workout made already) and the position its answer waits for. */
export interface LoggedRun {
  readonly runId: string;
  readonly position: LogPosition;
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
): Promise<LoggedRun> {
  const [logged] = await inTransaction(context, tx, (t) =>
    logRunsTogether(t, context.store, [{ input: { context, body, recordedWith }, idBeforeOutcomes: null }]),
  );
  if (!logged!.ok) throw logged!.error;
  return logged!.value.result;
}

/**
 * logRun for several runners' runs in one transaction (POST /runs's group commit, ../group-commit.ts): every run's
 * stream, its runner's goal index and, for a keyed request, the stream its key named the run by before runs were
 * named by their recording (idempotency/legacy-keyed-ids.ts) in one read; each run decided on its own (a refusal is
 * that run's); every new run appended in one statement, which applies the inline read models to all of them at once.
 * Two members with one recording cannot both append it: the group is refused and its members go one by one.
 * `store` appends (and reads): the caller's, without any request's own notes; each member's appends are answered.
 */
export async function logRunsTogether(
  tx: Tx,
  store: EventStore<Tx>,
  members: readonly { readonly input: RunToLog; readonly idBeforeOutcomes: string | null }[],
): Promise<Settled<Committed<LoggedRun>>[]> {
  const runs = members.map(({ input, idBeforeOutcomes }) => ({
    input,
    runId: runIdOf(input),
    savedUnderKey: idBeforeOutcomes,
  }));
  if (new Set(runs.map((r) => r.runId)).size < runs.length) throw new Error('One recording twice in one group');
  const read = await store.readStreams(
    [
      ...new Set(
        runs.flatMap((r) => [
          streams.run(r.runId),
          streams.userGoals(r.input.context.userId),
          ...(r.savedUnderKey ? [streams.run(r.savedUnderKey)] : []),
        ]),
      ),
    ],
    { transaction: tx },
  );
  const settled: Settled<Committed<LoggedRun>>[] = [];
  const appends: { i: number; append: StreamAppend }[] = [];
  for (const [i, run] of runs.entries()) {
    try {
      const { context } = run.input;
      const underKey = run.savedUnderKey
        ? savedRun(run.savedUnderKey, read.get(streams.run(run.savedUnderKey)) ?? [], false)
        : null;
      const saved = underKey ?? savedRun(run.runId, read.get(streams.run(run.runId)) ?? [], true);
      if (saved) {
        settled[i] = { ok: true, value: { result: saved, appended: NOTHING_APPENDED } };
        continue;
      }
      const goalIndex = read.get(streams.userGoals(context.userId)) ?? [];
      const decision = runDecider.decide(
        await newRunCommand(run.input, run.runId, goalIndex, tx),
        runDecider.initialState,
      );
      if (isLeft(decision)) throw new DomainRefusal(decision.left);
      const metadata = userMetadata(context);
      const events = decision.right.map((e) => toNewEvent(e, metadata));
      appends.push({ i, append: { streamId: streams.run(run.runId), events, expectedVersion: 'no_stream' } });
    } catch (error) {
      // This run's own refusal (a deleted recording, too old, a settled week): the others go on.
      settled[i] = { ok: false, error };
    }
  }
  const results =
    appends.length === 0
      ? []
      : await store.appendToStreams(
          appends.map((a) => a.append),
          { transaction: tx },
        );
  for (const [j, { i, append }] of appends.entries()) {
    const position = results[j]!.position;
    const appended = { eventTypes: [...new Set(append.events.map((e) => e.type))], positions: [position] };
    settled[i] = { ok: true, value: { result: { runId: runs[i]!.runId, position }, appended } };
  }
  return settled;
}

/** What a run already saved appended now: nothing (its answer waits for every read model, as any repeat's). */
const NOTHING_APPENDED: AppendedWrites = { eventTypes: [], positions: [] };

/**
 * The run's id: its GPS recording's (recording-id.ts), or, for a health workout, the runner and the workout's id
 * (the phone's word, so one runner's id never names another's run).
 */
function runIdOf({ context, body }: RunToLog): string {
  if (body.source === 'gps') return recordingRunId(context.userId, body.gps_data.positions);
  return importedRunId(body.source, `${context.userId}-${body.import_id ?? ''}`);
}

/**
 * The run a stream holds already, with the head of its stream to wait for; null when there is none. A recording (or
 * health workout) whose run was deleted is refused (409 `run_deleted`): it stays deleted. A run a key named before
 * runs were named by their recording (`refuseDeleted` false) is answered as it stands, as it always was.
 */
function savedRun(runId: string, history: readonly RecordedEvent[], refuseDeleted: boolean): LoggedRun | null {
  const head = history[history.length - 1]?.position;
  if (!head) return null;
  if (refuseDeleted) {
    const state = foldEvents(
      runDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as RunEvent),
    );
    if (state.status === 'deleted') throw new DomainRefusal(runErrors.recordingDeleted());
  }
  return { runId, position: head };
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
 * The command that saves a new run. A GPS track (the app's, or a watch file's: `recordedWith`) is LogGpsRun, held
 * to an upload's limits by the decider.
 *
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
async function newRunCommand(
  { context, body, recordedWith }: RunToLog,
  runId: string,
  goalIndex: readonly RecordedEvent[],
  tx: Tx,
): Promise<RunCommand> {
  const startedAt = Temporal.Instant.from(body.started_at);
  const now = instantOf(context);
  const week = await uploadWeek(context, startedAt, goalIndex, tx);
  // A track uploaded after the fact: the app's GPS, a watch file, a health workout with its route.
  const uploaded = {
    type: 'LogGpsRun' as const,
    runId,
    userId: context.userId,
    startedAt,
    durationSec: body.duration_sec,
    positions: body.gps_data.positions,
    notes: body.notes,
    evidenceForStake: week === 'evidence',
    live: false,
    now,
  };
  const source = body.source;
  if (source === 'gps') return { ...uploaded, weekSettled: week === 'settled', recordedWith };
  const importId = body.import_id ?? '';
  const cutoff = now.subtract({ hours: 24 * MAX_LOGGED_RUN_AGE_DAYS });
  if (week !== 'evidence' && startedAt.epochMilliseconds < cutoff.epochMilliseconds)
    throw new DomainRefusal(runErrors.tooOld(MAX_LOGGED_RUN_AGE_DAYS));
  if (week === 'settled') throw new DomainRefusal(runErrors.weekSettled());
  if (body.gps_data.positions.length > 0)
    return { ...uploaded, weekSettled: false, healthWorkout: { source, importId } };
  return {
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
  };
}
