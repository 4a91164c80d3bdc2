import { randomUUID } from 'node:crypto';
import { isLeft } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { runDecider } from '../../../domain/run/decide.ts';
import { trackingDecider, trackingErrors, type TrackingEvent } from '../../../domain/run/tracking.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import type { GpsPosition } from '../../../domain/run/geo.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand } from '../execute-command.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../goals/command-context.ts';

/** POST /runs/gps/start: opens the user's server-side tracking session ('Tracking is already active' if open). */
export async function startTracking(context: UserCommandContext): Promise<{ sessionId: string; startedAt: string }> {
  const sessionId = randomUUID();
  await executeCommand(
    context.store,
    trackingDecider,
    `tracking-${context.userId}`,
    { type: 'StartTracking', sessionId, userId: context.userId, now: instantOf(context) },
    userMetadata(context),
  );
  return { sessionId, startedAt: instantOf(context).toString() };
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
 * POST /runs/gps/finish. The run's id is the session's id, so a finish retried after a lost answer returns the same
 * run instead of a second one. The start time is the server's, kept since start, so a client killed mid-run still
 * finishes with the right start; the duration is the client's elapsed count when it has one, else the server's time
 * since start. A run too short or with too few positions ends the session with nothing saved and answers the
 * spec's message (§4, §8); so does `discard` (a canceled run), without the message.
 */
export async function finishTracking(
  context: UserCommandContext,
  input: FinishInput,
): Promise<{ runId: string | null; position: LogPosition | null }> {
  const streamId = `tracking-${context.userId}`;
  const history = await context.store.readStream(streamId);
  const state = foldEvents(
    trackingDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as TrackingEvent),
  );
  const now = instantOf(context);
  if (state.status === 'idle') {
    if (state.last !== null && input.sessionId === state.last.sessionId)
      return { runId: state.last.runId, position: null };
    throw new DomainRefusal(trackingErrors.notActive());
  }
  if (input.sessionId !== null && input.sessionId !== state.sessionId)
    throw new DomainRefusal(trackingErrors.notActive());
  const startedAt = Temporal.Instant.from(state.startedAt);
  const runId = state.sessionId;
  const durationSec = input.durationSec ?? (now.epochMilliseconds - startedAt.epochMilliseconds) / 1000;
  const logRun = {
    type: 'LogGpsRun',
    runId,
    userId: context.userId,
    startedAt,
    durationSec,
    positions: input.positions,
    notes: input.notes,
    now,
  } as const;
  const decision = runDecider.decide(logRun, runDecider.initialState);
  const saved = !input.discard && !isLeft(decision);
  const metadata = userMetadata(context);
  const position = await context.database.db.transaction().execute(async (tx) => {
    const ended = await executeCommand(
      context.store,
      trackingDecider,
      streamId,
      { type: 'FinishTracking', sessionId: state.sessionId, runId: saved ? runId : null, now },
      metadata,
      { transaction: tx },
    );
    if (!saved) return ended.append?.position ?? null;
    const run = await executeCommand(context.store, runDecider, `run-${runId}`, logRun, metadata, { transaction: tx });
    return run.append?.position ?? null;
  });
  if (!input.discard && isLeft(decision)) throw new DomainRefusal(decision.left);
  return { runId: saved ? runId : null, position };
}
