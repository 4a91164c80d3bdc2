import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error.ts';
import type { Run } from '../../../lib/api-types.ts';
import type { FinishedRun } from '../components/use-gps-tracker.ts';
import type { PendingRun, SaveRequest } from './pending-run.ts';
import type { RunQueueStore } from './run-queue.ts';
import { keepRun, SAVE_FAILED, sendAndSettle, syncPendingRuns } from './send-pending.ts';

/** A queue in memory (IndexedDB in the browser). */
function memoryStore(): RunQueueStore & { readonly records: Map<string, PendingRun> } {
  const records = new Map<string, PendingRun>();
  return {
    records,
    all: async () => [...records.values()],
    get: async (id) => records.get(id),
    put: async (run) => void records.set(run.id, run),
    remove: async (id) => void records.delete(id),
  };
}

const positions = [
  { latitude: 51.5, longitude: -0.12, accuracy: 5, timestamp: 1_764_000_000_000 },
  { latitude: 51.501, longitude: -0.12, accuracy: 5, timestamp: 1_764_000_060_000 },
];

const finished = (startMs: number, session: string | null): FinishedRun => ({
  started_at: new Date(startMs).toISOString(),
  distance_km: 0.11,
  duration_sec: 65,
  positions,
  session_id: session,
});

/**
 * A server that deduplicates by Idempotency-Key as ours does (same key: the first run, nothing new), reachable or
 * not as the test says.
 */
function fakeServer() {
  const runs = new Map<string, Run>();
  const attempts: { request: SaveRequest; key: string }[] = [];
  let failure: ApiError | null = null;
  return {
    runs,
    attempts,
    fail(next: ApiError | null) {
      failure = next;
    },
    async post(request: SaveRequest, key: string) {
      attempts.push({ request, key });
      if (failure) throw failure;
      const run = runs.get(key) ?? ({ id: `run-${runs.size + 1}` } as Run);
      runs.set(key, run);
      return { data: run, goal: null };
    },
  };
}

describe('offline runs: kept before sending, sent once', () => {
  let store: ReturnType<typeof memoryStore>;
  let server: ReturnType<typeof fakeServer>;
  beforeEach(() => {
    store = memoryStore();
    server = fakeServer();
  });

  it('keeps a run with one key; stopping the same run again finds it and keeps that key', async () => {
    const first = await keepRun(finished(1_764_000_000_000, 'session-1'), 'user-1', store);
    const again = await keepRun(finished(1_764_000_000_000, 'session-1'), 'user-1', store);
    expect(again.idempotencyKey).toBe(first.idempotencyKey);
    expect(store.records.size).toBe(1);
    expect(first.request).toEqual({
      path: '/runs/gps/finish',
      body: { session_id: 'session-1', positions, duration_sec: 65 },
    });
    const whole = await keepRun(finished(1_764_000_500_000, null), 'user-1', store);
    expect(whole.request.path).toBe('/runs');
    expect(whole.idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it('without a network the run waits; every later attempt sends the same request with the same key', async () => {
    const kept = await keepRun(finished(1_764_000_000_000, 'session-1'), 'user-1', store);
    server.fail(new ApiError('Request failed', 0));
    expect(await sendAndSettle(kept, store, server.post)).toEqual({ kind: 'waiting' });
    expect(await syncPendingRuns('user-1', store, server.post)).toEqual({ saved: 0, waiting: 1, refused: 0 });
    server.fail(new ApiError('Service unavailable', 503));
    expect((await syncPendingRuns('user-1', store, server.post)).waiting).toBe(1);
    expect(store.records.size).toBe(1);

    server.fail(null);
    expect(await syncPendingRuns('user-1', store, server.post)).toEqual({ saved: 1, waiting: 0, refused: 0 });
    expect(store.records.size).toBe(0);
    expect(new Set(server.attempts.map((a) => a.key))).toEqual(new Set([kept.idempotencyKey]));
    expect(new Set(server.attempts.map((a) => JSON.stringify(a.request))).size).toBe(1);
    expect(server.runs.size).toBe(1);
    // Nothing left to send: a later sync sends nothing.
    expect(await syncPendingRuns('user-1', store, server.post)).toEqual({ saved: 0, waiting: 0, refused: 0 });
    expect(server.attempts).toHaveLength(4);
  });

  it('an answer lost on the way back: the retry with the key gets the same run, one run in all', async () => {
    const kept = await keepRun(finished(1_764_000_000_000, null), 'user-1', store);
    // The server saved it, then the connection dropped before the answer.
    await server.post(kept.request, kept.idempotencyKey);
    expect((await sendAndSettle(kept, store, server.post)).kind).toBe('saved');
    expect(server.runs.size).toBe(1);
  });

  it('two syncs at once (online event and timer) make one round of attempts', async () => {
    await keepRun(finished(1_764_000_000_000, null), 'user-1', store);
    const [a, b] = await Promise.all([
      syncPendingRuns('user-1', store, server.post),
      syncPendingRuns('user-1', store, server.post),
    ]);
    expect(a).toEqual(b);
    expect(server.attempts).toHaveLength(1);
  });

  it('sends only the signed-in user’s runs, oldest first, and stops at the first that must wait', async () => {
    await keepRun(finished(1_764_000_900_000, null), 'user-1', store);
    await keepRun(finished(1_764_000_000_000, null), 'user-1', store);
    await keepRun(finished(1_764_000_500_000, null), 'user-2', store);
    await syncPendingRuns('user-1', store, server.post);
    expect(server.attempts.map((a) => (a.request.body as { started_at: string }).started_at)).toEqual([
      new Date(1_764_000_000_000).toISOString(),
      new Date(1_764_000_900_000).toISOString(),
    ]);
    expect([...store.records.values()].map((r) => r.userId)).toEqual(['user-2']);
  });

  it('a refusal is kept with its reason, not dropped, and not sent again', async () => {
    const kept = await keepRun(finished(1_764_000_000_000, 'session-1'), 'user-1', store);
    server.fail(new ApiError('Tracking is not active', 409));
    expect(await sendAndSettle(kept, store, server.post)).toEqual({
      kind: 'refused',
      message: 'Tracking is not active',
    });
    expect(store.records.get(kept.id)?.refusal).toBe('Tracking is not active');
    server.fail(null);
    expect(await syncPendingRuns('user-1', store, server.post)).toEqual({ saved: 0, waiting: 0, refused: 0 });
    expect(server.attempts).toHaveLength(1);
  });

  it('signed out or rate limited is "not now"; a finish the server ended without a run is refused', async () => {
    const kept = await keepRun(finished(1_764_000_000_000, 'session-1'), 'user-1', store);
    for (const status of [401, 408, 429, 500]) {
      server.fail(new ApiError('x', status));
      expect((await sendAndSettle(kept, store, server.post)).kind).toBe('waiting');
    }
    const ended = async () => ({ data: null, goal: null });
    expect(await sendAndSettle(kept, store, ended)).toEqual({ kind: 'refused', message: SAVE_FAILED });
  });
});
