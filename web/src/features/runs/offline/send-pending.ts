import { api } from '../../../lib/api.ts';
import { ApiError, errorMessage } from '../../../lib/api-error.ts';
import type { Goal, Run } from '../../../lib/api-types.ts';
import { newIdempotencyKey } from '../../../lib/idempotent-send.ts';
import type { FinishedRun } from '../components/use-gps-tracker.ts';
import { type PendingRun, pendingRunId, pendingRunOf, type SaveRequest } from './pending-run.ts';
import { announceRunQueueChange, type RunQueueStore, runQueueStore } from './run-queue.ts';

/** §8: the message when a run cannot be saved. */
export const SAVE_FAILED = 'Failed to save run. Please check your internet connection and try again.';

/** What one attempt to send a kept run came to. */
export type SendOutcome =
  | { readonly kind: 'saved'; readonly data: Run; readonly goal: Goal | null }
  /** The server could not be reached or could not take it now: the run stays queued for the next attempt. */
  | { readonly kind: 'waiting' }
  /** The server refused it for good (e.g. the run policy's limits): kept and shown with the reason. */
  | { readonly kind: 'refused'; readonly message: string };

/**
 * Sends a save request with the run's own key (never a fresh one: that would save it twice), as the user who ran it:
 * under any other session (another account signed in since) it is not sent at all (api's `asUser`: a 401, "not now").
 */
export type PostSave = (
  request: SaveRequest,
  key: string,
  userId: string,
) => Promise<{ data: Run | null; goal: Goal | null }>;

const postSave: PostSave = (request, key, userId) =>
  api<{ data: Run | null; goal: Goal | null }>(request.path, {
    method: 'POST',
    body: request.body,
    idempotencyKey: key,
    asUser: userId,
  });

/**
 * Whether a failure means "not now" rather than "no": no network (status 0), signed out or the token expired
 * (401: sent again once signed in), a timeout, rate limiting, or the server failing (5xx).
 */
export function isWorthRetrying(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return (
    error.status === 0 || error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500
  );
}

/** One attempt to send a kept run. */
export async function sendPendingRun(run: PendingRun, post: PostSave = postSave): Promise<SendOutcome> {
  try {
    const answer = await post(run.request, run.idempotencyKey, run.userId);
    // A finish the server ended without a run (too short by its count): nothing was saved.
    if (answer.data === null) return { kind: 'refused', message: SAVE_FAILED };
    return { kind: 'saved', data: answer.data, goal: answer.goal };
  } catch (error) {
    if (isWorthRetrying(error)) return { kind: 'waiting' };
    return { kind: 'refused', message: errorMessage(error, SAVE_FAILED) };
  }
}

/**
 * Keeps a finished run on the device before anything is sent, and answers its record. Stopping the same run twice
 * (a double tap, a reload between keeping and clearing the tracker) finds the record already there and keeps its key.
 */
export async function keepRun(
  run: FinishedRun,
  userId: string,
  store: RunQueueStore = runQueueStore(),
): Promise<PendingRun> {
  const existing = await store.get(pendingRunId(Date.parse(run.started_at)));
  if (existing) return existing;
  const pending = pendingRunOf(run, userId, newIdempotencyKey(), new Date());
  await store.put(pending);
  announceRunQueueChange();
  // Ask the browser not to evict the app's storage under pressure (it may say no; the run is kept either way).
  if (typeof navigator !== 'undefined') void navigator.storage?.persist?.().catch(() => false);
  return pending;
}

/** Sends a kept run once and records the outcome: gone from the queue when saved, marked when refused. */
export async function sendAndSettle(
  run: PendingRun,
  store: RunQueueStore = runQueueStore(),
  post: PostSave = postSave,
): Promise<SendOutcome> {
  const outcome = await sendPendingRun(run, post);
  if (outcome.kind === 'saved') await store.remove(run.id);
  else if (outcome.kind === 'refused') await store.put({ ...run, refusal: outcome.message });
  if (outcome.kind !== 'waiting') announceRunQueueChange();
  return outcome;
}

/** What a sync did. */
export interface SyncResult {
  readonly saved: number;
  readonly waiting: number;
  readonly refused: number;
}

let inFlight: Promise<SyncResult> | null = null;

/**
 * Sends `userId`'s kept runs, oldest first, one at a time; stops at the first that must wait (the network is still
 * down). One sync at a time per tab: the online event, the timer and app start may all ask at once.
 */
export function syncPendingRuns(
  userId: string,
  store: RunQueueStore = runQueueStore(),
  post: PostSave = postSave,
): Promise<SyncResult> {
  inFlight ??= (async () => {
    const result = { saved: 0, waiting: 0, refused: 0 };
    const queued = (await store.all())
      .filter((r) => r.userId === userId && r.refusal === null)
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    for (const [i, run] of queued.entries()) {
      const outcome = await sendAndSettle(run, store, post);
      if (outcome.kind === 'waiting') {
        result.waiting = queued.length - i;
        break;
      }
      result[outcome.kind] += 1;
    }
    return result;
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}
