import type { CreateRunInput } from '../api/create-run.ts';
import type { FinishTrackingInput } from '../api/finish-tracking.ts';
import type { FinishedRun } from '../components/use-gps-tracker.ts';

/** The request that saves a finished run: its session's finish, or the whole run when no session was opened. */
export type SaveRequest =
  | { readonly path: '/runs/gps/finish'; readonly body: FinishTrackingInput }
  | { readonly path: '/runs'; readonly body: CreateRunInput };

/**
 * A finished GPS run kept on the device until the server has it. The request is built once, when the runner stops,
 * and sent as it is with the same Idempotency-Key on every attempt: the server answers a repeat with the run the
 * first attempt saved (the run's id derives from the key, or is the session's), so however many attempts get
 * through — a lost answer, two tabs, a reload — the run is recorded once.
 */
export interface PendingRun {
  /** One per run: `gps-<start ms>`, so stopping the same run twice keeps one record (and one key). */
  readonly id: string;
  /** Whose run: only that user's session sends it. */
  readonly userId: string;
  readonly idempotencyKey: string;
  readonly request: SaveRequest;
  /** What the list shows while it waits. */
  readonly startedAt: string;
  readonly distanceKm: number;
  readonly durationSec: number;
  readonly queuedAt: string;
  /** The server's definitive refusal (kept, shown, discarded only by the runner), else null: still to send. */
  readonly refusal: string | null;
}

/** The record id of a run tracked from `startTime` (ms). */
export const pendingRunId = (startTime: number) => `gps-${startTime}`;

/** The save request of a finished run, as gps-tracker used to send it directly. */
export function saveRequestOf(run: FinishedRun): SaveRequest {
  if (run.session_id !== null)
    return {
      path: '/runs/gps/finish',
      body: { session_id: run.session_id, positions: run.positions, duration_sec: run.duration_sec },
    };
  return {
    path: '/runs',
    body: {
      started_at: run.started_at,
      distance_km: run.distance_km,
      duration_sec: run.duration_sec,
      source: 'gps',
      gps_data: { positions: run.positions },
    },
  };
}

/** A new record for `run` of `userId`, with its key. */
export function pendingRunOf(run: FinishedRun, userId: string, key: string, now: Date): PendingRun {
  return {
    id: pendingRunId(Date.parse(run.started_at)),
    userId,
    idempotencyKey: key,
    request: saveRequestOf(run),
    startedAt: run.started_at,
    distanceKm: run.distance_km,
    durationSec: run.duration_sec,
    queuedAt: now.toISOString(),
    refusal: null,
  };
}
