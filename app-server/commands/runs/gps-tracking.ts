import { isLeft } from 'fp-ts/lib/Either.js';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { runDecider } from '../../../domain/run/decide.ts';
import { sessionTrack, type TrackFixesReceived, trackUploadDecider } from '../../../domain/run/track-upload.ts';
import {
  trackingDecider,
  trackingErrors,
  type TrackingEvent,
  type TrackingState,
} from '../../../domain/run/tracking.ts';
import { type DomainError, foldEvents } from '../../../domain/shared/decider.ts';
import { type LogPosition, WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import type { GpsPosition } from '../../../domain/run/geo.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { appendEvents, executeCommand, loadAggregate } from '../execute-command.ts';
import { inTransaction, instantOf, newAggregateId, type UserCommandContext, userMetadata } from '../command-context.ts';
import { recordingRunId } from './recording-id.ts';
import { streams } from '../../../domain/shared/streams.ts';

type Tx = Transaction<object>;

/**
 * POST /runs/gps/start: opens the user's server-side tracking session ('Tracking is already active' if open), in `tx`
 * when given (a keyed request's: a retry answers the session it opened, recorded with it).
 */
export async function startTracking(
  context: UserCommandContext,
  tx?: Tx,
): Promise<{ sessionId: string; startedAt: string }> {
  const sessionId = newAggregateId();
  await executeCommand(
    context.store,
    trackingDecider,
    streams.tracking(context.userId),
    { type: 'StartTracking', sessionId, userId: context.userId, now: instantOf(context) },
    userMetadata(context),
    tx ? { transaction: tx } : {},
  );
  return { sessionId, startedAt: instantOf(context).toString() };
}

/** The user's tracking session as the stream tells it. */
async function trackingState(context: UserCommandContext, tx?: Tx): Promise<TrackingState> {
  const history = await context.store.readStream(streams.tracking(context.userId), tx ? { transaction: tx } : {});
  return foldEvents(
    trackingDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as TrackingEvent),
  );
}

const sessionStreamId = (sessionId: string) => streams.trackingSession(sessionId);

/**
 * POST /runs/gps/positions: a batch of fixes of the open session, stamped with the moment it arrived (see
 * domain/run/track-upload.ts for why). Only the open session of the signed-in user takes fixes. The write path of
 * executeCommand, folding only the stream's last event (the upload decider's state is its running total), with the
 * same optimistic concurrency: a batch racing another re-reads and decides again.
 */
export async function uploadFixes(
  context: UserCommandContext,
  input: { sessionId: string; positions: readonly GpsPosition[] },
): Promise<{ received: number }> {
  const state = await trackingState(context);
  // Someone else's session, or one that ended: refused before its stream is touched.
  if (state.status !== 'tracking' || state.sessionId !== input.sessionId) {
    throw new DomainRefusal(trackingErrors.notActive());
  }
  const streamId = sessionStreamId(input.sessionId);
  const command = {
    type: 'ReceiveFixes',
    sessionId: input.sessionId,
    userId: context.userId,
    activeSessionId: state.sessionId,
    positions: input.positions,
    now: instantOf(context),
  } as const;
  for (let attempt = 1; ; attempt++) {
    const [last] = await context.store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    const upload = last
      ? trackUploadDecider.evolve(trackUploadDecider.initialState, last as unknown as TrackFixesReceived)
      : trackUploadDecider.initialState;
    const decision = trackUploadDecider.decide(command, upload);
    if (isLeft(decision)) throw new DomainRefusal(decision.left);
    const events = decision.right;
    if (events.length === 0) return { received: upload.fixes };
    try {
      await appendEvents(
        context.store,
        streamId,
        events,
        userMetadata(context),
        last ? last.streamRevision : 'no_stream',
      );
      return { received: events[events.length - 1]!.data.totalFixes };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < 3) continue;
      throw error;
    }
  }
}

/** What the client sends when it stops (or when a relaunched app finishes a session it lost). */
export interface FinishInput {
  readonly sessionId: string | null;
  readonly positions: readonly GpsPosition[];
  readonly durationSec: number | null;
  readonly notes: string | null;
  readonly discard: boolean;
}

/**
 * POST /runs/gps/finish. The start time is the server's, kept since start, so a client killed mid-run still
 * finishes with the right start; the duration is the client's elapsed count when it has one, else the server's time
 * since start, and never more than that. The track is what the session uploaded as it ran, each fix with the moment
 * it arrived, plus the fixes this request carries (arriving now): the verification policy counts toward a stake only
 * what arrived live. The run's id is its recording's (recording-id.ts), as for POST /runs: a recording saved before
 * (by an upload or another session) ends this session on that run instead of a second one, and one whose run was
 * deleted ends it with nothing saved (409 `run_deleted`). The session records the run's id, so a finish retried after
 * a lost answer returns the same run. A run too short or with too few positions ends the session with nothing saved
 * and answers the spec's message (§4, §8); so does `discard` (a canceled run), without the message. Everything reads
 * and writes in `tx` (a keyed request's, whose retry answers the recorded result, or one of its own), so a twin racing
 * the first finish waits for it and then finds the session ended on that run.
 */
export async function finishTracking(context: UserCommandContext, input: FinishInput, tx?: Tx): Promise<FinishOutcome> {
  return inTransaction(context, tx, (transaction) => finishIn(context, input, transaction));
}

/**
 * How a finish ended: the run saved (or found) and the position to wait for, or `refused`, the reason no run was
 * saved although the session ended (committed): the caller answers it after the commit (`refusalOf`).
 */
export interface FinishOutcome {
  readonly runId: string | null;
  readonly position: LogPosition | null;
  readonly refused: DomainError | null;
}

/** Throws the refusal a finish ended with (after its session's end committed), or answers the finish. */
export function refusalOf(outcome: FinishOutcome): { runId: string | null; position: LogPosition | null } {
  if (outcome.refused) throw new DomainRefusal(outcome.refused);
  return { runId: outcome.runId, position: outcome.position };
}

async function finishIn(context: UserCommandContext, input: FinishInput, tx: Tx): Promise<FinishOutcome> {
  const streamId = streams.tracking(context.userId);
  const state = await trackingState(context, tx);
  const now = instantOf(context);
  if (state.status === 'idle') {
    if (state.last !== null && input.sessionId === state.last.sessionId)
      return { runId: state.last.runId, position: null, refused: null };
    throw new DomainRefusal(trackingErrors.notActive());
  }
  if (input.sessionId !== null && input.sessionId !== state.sessionId)
    throw new DomainRefusal(trackingErrors.notActive());
  const startedAt = Temporal.Instant.from(state.startedAt);
  // The client's count, but never longer than the session the server saw: its start and this finish bound it.
  const serverElapsedSec = (now.epochMilliseconds - startedAt.epochMilliseconds) / 1000;
  const durationSec = Math.min(input.durationSec ?? serverElapsedSec, serverElapsedSec);
  const uploads = await context.store.readStream(sessionStreamId(state.sessionId), { transaction: tx });
  const positions = sessionTrack(
    uploads.map((e) => (e.data as TrackFixesReceived['data']).positions),
    input.positions,
    now.epochMilliseconds,
  );
  const runId = recordingRunId(context.userId, positions);
  const logRun = {
    type: 'LogGpsRun',
    runId,
    userId: context.userId,
    startedAt,
    durationSec,
    positions,
    notes: input.notes,
    weekSettled: false,
    live: true,
    now,
  } as const;
  // Whether this is a run at all, and whether its recording's run was deleted (then it stays deleted); a recording
  // recorded before is not a refusal here: the session ends on that run.
  const earlier = await loadAggregate(context.store, runDecider, streams.run(runId), tx);
  const decision = runDecider.decide(
    logRun,
    earlier.state.status === 'deleted' ? earlier.state : runDecider.initialState,
  );
  const saved = !input.discard && !isLeft(decision);
  const metadata = userMetadata(context);
  // Two writers of one recording (this finish and an upload of the same track) race on the run stream's version:
  // the loser's transaction rolls back and runs again (executeInTransaction, the caller's), and then finds the run.
  const position = await (async () => {
    const ended = await executeCommand(
      context.store,
      trackingDecider,
      streamId,
      { type: 'FinishTracking', sessionId: state.sessionId, runId: saved ? runId : null, now },
      metadata,
      { transaction: tx },
    );
    if (!saved) return ended.append?.position ?? null;
    try {
      const run = await executeCommand(context.store, runDecider, streams.run(runId), logRun, metadata, {
        transaction: tx,
      });
      return run.append?.position ?? null;
    } catch (error) {
      // The same recording was saved already (a twin of this request, or an upload of the same track): that run.
      if (!(error instanceof DomainRefusal) || error.reason.code !== 'run_exists') throw error;
      const [last] = await context.store.readStream(streams.run(runId), {
        direction: 'backwards',
        maxCount: 1,
        transaction: tx,
      });
      return last?.position ?? null;
    }
  })();
  return { runId: saved ? runId : null, position, refused: !input.discard && isLeft(decision) ? decision.left : null };
}
