import { type Either, left, right } from 'fp-ts/lib/Either.js';
import type { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { type DomainError, defineDecider, domainError } from '../shared/decider.ts';
import { entityId, isoInstant } from '../shared/event-schema.ts';

/**
 * A GPS tracking session kept on the server, stream `tracking-<userId>`: started by `POST /runs/gps/start`, ended
 * by `POST /runs/gps/finish`. Kept server-side so a native client whose app was killed mid-run can still finish it
 * (its start time survives here), and so a second device cannot start a parallel session (§4: a start while
 * tracking is refused). The run itself is recorded on its own stream; this stream only says whether a session is
 * open and which run it became, which makes a retried finish return the same run. The fixes uploaded while the
 * session runs go to the session's own stream (track-upload.ts).
 */
export const TrackingEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('TrackingStarted'),
    data: z.object({ sessionId: entityId, userId: entityId, startedAt: isoInstant }),
  }),
  z.object({
    type: z.literal('TrackingFinished'),
    /** `runId` null: the run was too short or had too few positions and nothing was saved (§4). */
    data: z.object({ sessionId: entityId, runId: entityId.nullable(), finishedAt: isoInstant }),
  }),
]);
/** Events of the tracking stream. */
export type TrackingEvent = z.infer<typeof TrackingEvent>;

/** Commands of the tracking stream. */
export type TrackingCommand =
  | {
      readonly type: 'StartTracking';
      readonly sessionId: string;
      readonly userId: string;
      readonly now: Temporal.Instant;
    }
  | {
      readonly type: 'FinishTracking';
      readonly sessionId: string | null;
      readonly runId: string | null;
      readonly now: Temporal.Instant;
    };

/** Whether a session is open, and how the last one ended. */
export type TrackingState =
  | { readonly status: 'idle'; readonly last: { readonly sessionId: string; readonly runId: string | null } | null }
  | { readonly status: 'tracking'; readonly sessionId: string; readonly startedAt: string };

/** Refusals of the tracking stream; 'Tracking is already active' is the spec's (§8). */
export const trackingErrors = {
  alreadyActive: () => domainError('conflict', 'tracking_active', 'Tracking is already active'),
  notActive: () => domainError('conflict', 'tracking_not_active', 'No GPS tracking is active'),
} satisfies Record<string, () => DomainError>;

function decide(command: TrackingCommand, state: TrackingState): Either<DomainError, readonly TrackingEvent[]> {
  switch (command.type) {
    case 'StartTracking':
      if (state.status === 'tracking') return left(trackingErrors.alreadyActive());
      return right([
        {
          type: 'TrackingStarted',
          data: { sessionId: command.sessionId, userId: command.userId, startedAt: command.now.toString() },
        },
      ]);
    case 'FinishTracking': {
      // A repeated finish of the session that just ended (the answer was lost) changes nothing.
      if (state.status === 'idle') {
        if (state.last !== null && command.sessionId === state.last.sessionId) return right([]);
        return left(trackingErrors.notActive());
      }
      if (command.sessionId !== null && command.sessionId !== state.sessionId) return left(trackingErrors.notActive());
      return right([
        {
          type: 'TrackingFinished',
          data: { sessionId: state.sessionId, runId: command.runId, finishedAt: command.now.toString() },
        },
      ]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function evolve(_state: TrackingState, event: TrackingEvent): TrackingState {
  switch (event.type) {
    case 'TrackingStarted':
      return { status: 'tracking', sessionId: event.data.sessionId, startedAt: event.data.startedAt };
    case 'TrackingFinished':
      return { status: 'idle', last: { sessionId: event.data.sessionId, runId: event.data.runId } };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The tracking-session decider, stream `tracking-<userId>`. */
export const trackingDecider = defineDecider<TrackingCommand, TrackingEvent, TrackingState>({
  initialState: { status: 'idle', last: null },
  evolve,
  decide,
  eventSchema: TrackingEvent,
});
