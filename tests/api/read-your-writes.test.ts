import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goalsProjector } from '../../projections/goals/goals-projector.ts';
import { groupsProjector } from '../../projections/groups/groups-projector.ts';
import { ProjectionRunner } from '../../projections/runner/projection-runner.ts';
import type { Projector } from '../../projections/runner/projector.ts';
import { runsProjector } from '../../projections/runs/runs-projector.ts';
import { CATCHING_UP_HEADER } from '../../app-server/http/read-your-writes.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

/**
 * Writes wait only for the read models their answer reads, and only for a while: the runtime's own projections do
 * not run here (workers off); each test runs exactly the projectors it wants, so every other read model stands still.
 */
describe.each(databaseTargets())('read-your-writes of command routes on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const only = (...projectors: Projector[]) =>
    new ProjectionRunner({ db: runtime.database.db, store: runtime.store, projectors });

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z', workers: false });
    alice = await createTestUser(runtime, 'alice');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('answers a saved run in full once the runs and goals read models have it, while the seven others stand still', async () => {
    const partial = only(runsProjector, goalsProjector);
    // Caught up first, so the write waits for its own events only, not for earlier tests' backlog (on a loaded CI
    // machine that backlog alone can take the route's whole wait).
    await partial.catchUp();
    await partial.start();
    try {
      const res = await as(alice)('POST', '/runs', runBody('2026-11-17T08:00:00Z', 5, 'easy'));
      expect(res.status).toBe(201);
      expect(res.headers.get(CATCHING_UP_HEADER)).toBeNull();
      expect(res.body.catching_up).toBeUndefined();
      expect(res.body.data).toMatchObject({ distance_km: 5, notes: 'easy', source: 'gps' });
      const behind = (await runtime.projections.status()).filter((s) => s.lag > 0).map((s) => s.name);
      expect(behind.sort()).toEqual(['feed', 'gamification', 'goal-pauses', 'groups', 'log-stats', 'stakes', 'surges']);
    } finally {
      await partial.stop();
    }
  });

  it('answers a saved write 201 with its id and the read models catching up when they do not arrive in time', async () => {
    const res = await as(alice)('POST', '/runs', runBody('2026-11-16T08:00:00Z', 3));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { id: expect.any(String) }, catching_up: ['runs', 'goals'] });
    expect(res.headers.get(CATCHING_UP_HEADER)).toBe('runs, goals');
    const id = res.body.data.id as string;
    // It is saved: in the log now, and in the read model once the projections run again.
    expect((await runtime.store.readStream(`run-${id}`)).map((e) => e.type)).toEqual(['RunRecorded']);
    const partial = only(runsProjector, goalsProjector);
    await partial.catchUp();
    const runs = await as(alice)('GET', '/runs');
    expect(runs.body.data.map((r: { id: string }) => r.id)).toContain(id);
  });

  it('declares per route what it waits for: a new group waits for groups only', async () => {
    const partial = only(groupsProjector);
    await partial.catchUp();
    await partial.start();
    try {
      const res = await as(alice)('POST', '/groups', { name: `Milers ${randomUUID().slice(0, 4)}` });
      expect(res.status).toBe(201);
      expect(res.headers.get(CATCHING_UP_HEADER)).toBeNull();
      expect(res.body.data).toMatchObject({ member_count: 1 });
    } finally {
      await partial.stop();
    }
    const late = await as(alice)('POST', '/groups', { name: 'Late Milers' });
    expect(late.status).toBe(201);
    expect(late.body.catching_up).toEqual(['groups']);
  });

  it('answers a saved delete with what it did, even with its read models behind', async () => {
    const partial = only(runsProjector, goalsProjector);
    await partial.catchUp();
    const [run] = (await as(alice)('GET', '/runs')).body.data as { id: string }[];
    const res = await as(alice)('DELETE', `/runs/${run!.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: run!.id, deleted: true }, catching_up: ['runs', 'goals'] });
  });
});
