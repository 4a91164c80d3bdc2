import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

/**
 * The hot reads answer from the read cache (app-server/http/read-cache.ts) once warm, and a change made through the
 * API is in the very next read. Each test first proves the read was served from the cache (the hit counter moves), so
 * a later fresh answer can only come from the invalidation, not from a cache that was never used.
 */
describe.each(databaseTargets())('hot reads from the read cache on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  let groupId: string;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const hits = () => runtime.readCache?.stats.hits ?? 0;
  /** Reads twice and checks the second answer came from the cache and equals the first. */
  const warm = async (user: TestUser, path: string) => {
    const first = await as(user)('GET', path);
    expect(first.status).toBe(200);
    const before = hits();
    const second = await as(user)('GET', path);
    expect(hits()).toBe(before + 1);
    expect(second.body).toEqual(first.body);
    return second.body;
  };

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T17:00:00Z' });
    alice = await createTestUser(runtime, 'alice');
    bob = await createTestUser(runtime, 'bob');
    const group = await as(alice)('POST', '/groups', { name: 'Cache Runners' });
    groupId = group.body.data.id;
    await as(bob)('POST', '/groups/join', { invite_code: group.body.data.invite_code });
  }, 120_000);
  afterAll(() => runtime?.close());

  it('has a cache (no replica here)', () => {
    expect(runtime.readCache).not.toBeNull();
  });

  it('GET /goals/current: a new goal, then a logged run, then a cancel are each in the next read', async () => {
    expect((await warm(alice, '/goals/current')).data).toBeNull();
    const created = await as(alice)('POST', '/goals', { type: 'distance', target_value: 10 });
    expect(created.status).toBe(201);
    expect((await as(alice)('GET', '/goals/current')).body.data).toMatchObject({ id: created.body.data.id });

    expect((await warm(alice, '/goals/current')).data.progress).toBe(0);
    expect((await as(alice)('POST', '/runs', runBody('2026-11-18T15:00:00Z', 5))).status).toBe(201);
    expect((await as(alice)('GET', '/goals/current')).body.data).toMatchObject({ progress: 5, percentage: 50 });

    await warm(alice, '/goals/current');
    expect((await as(alice)('PATCH', `/goals/${created.body.data.id}`, { status: 'canceled' })).status).toBe(200);
    expect((await as(alice)('GET', '/goals/current')).body.data).toBeNull();
  });

  it('GET /goals/current: the time-dependent parts are computed per request from the cached rows', async () => {
    const created = await as(bob)('POST', '/goals', { type: 'count', target_value: 3 });
    expect(created.status).toBe(201);
    await settle(runtime); // the process managers' later events re-announce the goal: let them pass first
    const wednesday = await warm(bob, '/goals/current');
    runtime.clock.set('2026-11-20T17:00:00Z'); // Friday: two days fewer left, same rows
    try {
      const signedIn = await freshToken(runtime, bob); // Wednesday's access token has expired
      const before = hits();
      const friday = (await as(signedIn)('GET', '/goals/current')).body.data;
      expect(hits()).toBe(before + 1);
      expect(friday.id).toBe(wednesday.data.id);
      expect(friday.days_left).toBe(wednesday.data.days_left - 2);
    } finally {
      runtime.clock.set('2026-11-18T17:00:00Z');
    }
  });

  it('GET /runs: a logged run, a note and a deletion are each in the next read', async () => {
    const before = (await warm(alice, '/runs?limit=20')).data.length;
    const posted = await as(alice)('POST', '/runs', runBody('2026-11-18T13:00:00Z', 3));
    expect(posted.status).toBe(201);
    const after = (await as(alice)('GET', '/runs?limit=20')).body.data;
    expect(after).toHaveLength(before + 1);
    expect(after.map((r: { id: string }) => r.id)).toContain(posted.body.data.id);

    await warm(alice, '/runs?limit=20');
    expect((await as(alice)('PATCH', `/runs/${posted.body.data.id}`, { notes: 'easy' })).status).toBe(200);
    const noted = (await as(alice)('GET', '/runs?limit=20')).body.data.find(
      (r: { id: string }) => r.id === posted.body.data.id,
    );
    expect(noted.notes).toBe('easy');

    await warm(alice, '/runs?limit=20');
    expect((await as(alice)('DELETE', `/runs/${posted.body.data.id}`)).status).toBe(200);
    expect((await as(alice)('GET', '/runs?limit=20')).body.data).toHaveLength(before);
  });

  it('GET /feed: a reaction and a group mate’s run are each in the next read, names read afresh', async () => {
    const feed = `/feed?group_id=${groupId}&filter=runs`;
    // POST /runs answers before the feed has the earlier tests' runs (runs and goals are inline, the feed is not): an
    // announcement still on its way would make the warm-up's second read a miss. Let the feed catch up first.
    await runtime.projections.waitFor((await runtime.store.headPosition())!, 10_000);
    const card = (await warm(bob, feed)).data.find((e: { user_id: string }) => e.user_id === alice.id);
    expect(card).toBeDefined();
    const reacted = await as(bob)('POST', `/feed/${card.id}/reactions`, { emoji: 'fire' });
    expect(reacted.status).toBe(201);
    const again = (await as(bob)('GET', feed)).body.data.find((e: { id: string }) => e.id === card.id);
    expect(again.reactions.fire).toBe(card.reactions.fire + 1);

    // Bob's own run reaches his group page in Alice's feed (the feed read model is followed, not awaited, by POST
    // /runs: wait for it as a client told by the realtime stream would, then read once).
    const aliceView = (await warm(alice, feed)).data.length;
    expect((await as(bob)('POST', '/runs', runBody('2026-11-18T14:00:00Z', 4))).status).toBe(201);
    await runtime.projections.waitFor((await runtime.store.headPosition())!, 10_000);
    expect((await as(alice)('GET', feed)).body.data).toHaveLength(aliceView + 1);
  });
});
