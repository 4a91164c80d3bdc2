import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedProjector } from '../../projections/feed/feed-projector.ts';
import { groupsProjector } from '../../projections/groups/groups-projector.ts';
import { stakesProjector } from '../../projections/stakes/stakes-projector.ts';
import { ProjectionRunner } from '../../projections/engine/projection-runner.ts';
import type { Projector } from '../../projections/engine/projector.ts';
import { CATCHING_UP_HEADER } from '../../app-server/http/read-your-writes.ts';
import { saveCard } from '../money/money-fixtures.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

/**
 * Writes wait only for the asynchronous read models their events reach (runs and goals are inline: never; which ones,
 * route by route, is read-models-awaited.test.ts), and only for a while: the runtime's own projections do not run here
 * (workers off); each test runs exactly the projectors it wants, so every other read model stands still.
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

  it('answers a saved run in full from its own transaction, with no worker running at all', async () => {
    // runs and goals are inline read models (projections/engine/inline-projections.ts): never waited for. The feed
    // card the run makes follows on the engine, which stands still here, and a run's answer leaves it to catch up
    // (A_RUN_LEAVES_TO_CATCH_UP): POST /runs never waits for a worker. A new asynchronous read model a run reaches
    // fails this test until it is left to catch up there or made inline.
    const res = await as(alice)('POST', '/runs', runBody('2026-11-17T08:00:00Z', 5, 'easy'));
    expect(res.status).toBe(201);
    expect(res.headers.get(CATCHING_UP_HEADER)).toBeNull();
    expect(res.body.catching_up).toBeUndefined();
    expect(res.body.data).toMatchObject({ distance_km: 5, notes: 'easy', source: 'gps' });
    const runs = await as(alice)('GET', '/runs');
    expect(runs.body.data).toContainEqual(
      expect.objectContaining({ id: res.body.data.id, distance_km: 5, notes: 'easy', source: 'gps' }),
    );
    // The asynchronous read models stand still (no worker): none of them held the answer up.
    const behind = (await runtime.projections.status()).filter((s) => s.lag > 0).map((s) => s.name);
    expect(behind).toEqual(expect.arrayContaining(['feed', 'gamification', 'log-stats']));
  });

  it('names the stakes read model as catching up for a goal with a stake: the stake opened in its transaction', async () => {
    const pm = await saveCard(runtime, alice);
    const body = { type: 'distance', target_value: 12, stake_amount_cents: 1000, payment_method_id: pm };
    const res = await as(alice)('POST', '/goals', body);
    expect(res.status).toBe(201);
    expect(res.body.catching_up).toContain('stakes');
    await only(stakesProjector).catchUp();
    const stakes = await as(alice)('GET', '/stakes');
    expect(stakes.body.stakes.map((s: { goal_id: string }) => s.goal_id)).toContain(res.body.data.id);
  });

  it('answers a saved write 201 with its id and the read models catching up when they do not arrive in time', async () => {
    const res = await as(alice)('POST', '/groups', { name: `Joggers ${randomUUID().slice(0, 4)}` });
    expect(res.status).toBe(201);
    // GroupCreated reaches the groups read model and the feed (its members' cards): neither runs here.
    expect(res.body).toEqual({ success: true, data: { id: expect.any(String) }, catching_up: ['groups', 'feed'] });
    expect(res.headers.get(CATCHING_UP_HEADER)).toBe('groups, feed');
    const id = res.body.data.id as string;
    // It is saved: in the log now, and in the read model once the projections run again.
    expect((await runtime.store.readStream(`group-${id}`)).map((e) => e.type)).toContain('GroupCreated');
    await only(groupsProjector).catchUp();
    const group = await as(alice)('GET', `/groups/${id}`);
    expect(group.status).toBe(200);
  });

  it('waits for what its events reach and for nothing else: a new group for groups and the feed', async () => {
    const partial = only(groupsProjector, feedProjector);
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
    expect(late.body.catching_up).toEqual(['groups', 'feed']);
  });

  it('answers a saved delete in full, its run gone from the runs read model at once', async () => {
    const [run] = (await as(alice)('GET', '/runs')).body.data as { id: string }[];
    // The run's feed card goes too: the feed runs here, the runs read model is inline.
    const partial = only(feedProjector);
    await partial.catchUp();
    await partial.start();
    try {
      const res = await as(alice)('DELETE', `/runs/${run!.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { id: run!.id, deleted: true } });
    } finally {
      await partial.stop();
    }
    const runs = await as(alice)('GET', '/runs');
    expect(runs.body.data.map((r: { id: string }) => r.id)).not.toContain(run!.id);
  });
});
