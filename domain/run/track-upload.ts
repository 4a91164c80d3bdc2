import { type Either, left, right } from 'fp-ts/lib/Either.js';
import type { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { type DomainError, defineDecider, domainError } from '../shared/decider.ts';
import { entityId, isoInstant } from '../shared/event-schema.ts';
import { GpsFix } from './events.ts';
import type { GpsPosition } from './geo.ts';
import { runErrors } from './messages.ts';
import { trackingErrors } from './tracking.ts';

/**
 * The fixes of a live GPS session as they reached the server, stream `tracking-session-<sessionId>`.
 *
 * Why: a track must arrive while it is run (issue 11; verification.ts rule 4). The tracker uploads its new fixes
 * every 10–30 s (POST /runs/gps/positions); each batch is stamped with the moment it arrived, and the finish turns
 * the fixes into the run with those stamps, so the policy can tell a track that came in live from one made up and
 * sent at the end. One stream per session keeps the user's tracking stream short (it is read on every upload).
 */
export const TrackFixesReceived = z.object({
  type: z.literal('TrackFixesReceived'),
  /** `userId` lets the fixes be encrypted under the owner's key (personal data, like a run's positions). */
  data: z.object({
    sessionId: entityId,
    userId: entityId,
    positions: z.array(GpsFix).readonly(),
    /** Fixes the session holds with this batch: the state is the last event's total, so one event is read. */
    totalFixes: z.number().int().nonnegative(),
    receivedAt: isoInstant,
  }),
});
/** A batch of fixes reached the server. */
export type TrackFixesReceived = z.infer<typeof TrackFixesReceived>;

/** A batch of fixes from the tracker, for the session the handler found open (`activeSessionId`). */
export interface ReceiveFixes {
  readonly type: 'ReceiveFixes';
  readonly sessionId: string;
  readonly userId: string;
  /** The user's open session, null when none (from the tracking stream). */
  readonly activeSessionId: string | null;
  readonly positions: readonly GpsPosition[];
  readonly now: Temporal.Instant;
}

/** How many fixes a session's uploads may hold: a day at one fix a second, the same bound as a finish body. */
export const MAX_SESSION_FIXES = 100_000;

/** The session's uploads so far. */
export interface TrackUploadState {
  readonly fixes: number;
}

/** Refusals of the upload. */
export const trackUploadErrors = {
  tooManyFixes: () =>
    domainError('invalid', 'too_many_fixes', `A GPS session holds at most ${MAX_SESSION_FIXES} positions`),
} satisfies Record<string, () => DomainError>;

const validFix = (p: GpsPosition) =>
  Number.isFinite(p.latitude) &&
  Math.abs(p.latitude) <= 90 &&
  Number.isFinite(p.longitude) &&
  Math.abs(p.longitude) <= 180 &&
  Number.isFinite(p.timestamp);

function decide(command: ReceiveFixes, state: TrackUploadState): Either<DomainError, readonly TrackFixesReceived[]> {
  if (command.activeSessionId === null || command.activeSessionId !== command.sessionId) {
    return left(trackingErrors.notActive());
  }
  if (!command.positions.every(validFix)) return left(runErrors.invalidPosition());
  if (command.positions.length === 0) return right([]);
  if (state.fixes + command.positions.length > MAX_SESSION_FIXES) return left(trackUploadErrors.tooManyFixes());
  const receivedAt = command.now.epochMilliseconds;
  return right([
    {
      type: 'TrackFixesReceived',
      data: {
        sessionId: command.sessionId,
        userId: command.userId,
        positions: command.positions.map((p) => ({ ...p, receivedAt })),
        totalFixes: state.fixes + command.positions.length,
        receivedAt: command.now.toString(),
      },
    },
  ]);
}

/**
 * The upload decider, stream `tracking-session-<sessionId>`. Its state is the running total the last event carries,
 * so a handler may fold only the stream's last event (a session uploads hundreds of batches; each batch reading
 * and decrypting all the earlier ones would make a long run quadratic).
 */
export const trackUploadDecider = defineDecider<ReceiveFixes, TrackFixesReceived, TrackUploadState>({
  initialState: { fixes: 0 },
  evolve: (_state, event) => ({ fixes: event.data.totalFixes }),
  decide,
  eventSchema: TrackFixesReceived,
});

/**
 * The session's track at finish: the uploaded fixes with the moment each arrived, plus the fixes the finish request
 * carries (the last seconds, or everything when the phone was offline), which arrive now. A fix sent twice (in a
 * batch and again at finish) keeps its first arrival. Ordered by time. Positions whose personal data was erased
 * read as null and are skipped.
 */
export function sessionTrack(
  uploads: readonly (readonly GpsPosition[] | null)[],
  atFinish: readonly GpsPosition[],
  finishedAtMs: number,
): GpsPosition[] {
  const byTime = new Map<number, GpsPosition>();
  for (const batch of uploads) {
    for (const fix of batch ?? []) if (!byTime.has(fix.timestamp)) byTime.set(fix.timestamp, fix);
  }
  for (const fix of atFinish) {
    if (!byTime.has(fix.timestamp)) byTime.set(fix.timestamp, { ...fix, receivedAt: finishedAtMs });
  }
  return [...byTime.values()].sort((a, b) => a.timestamp - b.timestamp);
}
