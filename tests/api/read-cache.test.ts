import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

/**
 * The hot reads answer from the read cache (app-server/http/read-cache.ts) once warm, and a change made through the
 * API is in the very next read. Each test first proves the read was served from the cache (the hit counter moves), so
 * a later fresh answer can only come from the invalidation, not from a cache that was never used.
 */
/** Cached entries a hot read is made of: the challenges answer is two, the members as they are and their figures. */
const entriesOf = (path: string) => (path.endsWith('/challenges') ? 2 : 1);

describe.each(databaseTargets())('hot reads from the read cache on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  let groupId: string;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const hits = () => runtime.readCache?.stats.hits ?? 0;
  /** Reads twice and checks the second answer came from the cache (each of its entries) and equals the first. */
  const warm = async (user: TestUser, path: string) => {
    const first = await as(user)('GET', path);
    expect(first.status).toBe(200);
    const before = hits();
    const second = await as(user)('GET', path);
    expect(hits()).toBe(before + entriesOf(path));
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
    // announcement still on its way would make the warm-up's second read a miss. Let the feed, and the process
    // managers' later events, catch up first.
    await settle(runtime);
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
  it('GET /feed: the names on the cards are held too, and a rename by any path is in the next read', async () => {
    const feed = `/feed?group_id=${groupId}&filter=runs`;
    const nameOnAlicesCard = (body: { data: { user_id: string; display_name: string }[] }) =>
      body.data.find((e) => e.user_id === alice.id)?.display_name;
    await settle(runtime); // the last run's later events (XP, badges) announce too: let them pass before warming up
    await warm(bob, feed);
    // Warm: the page and the names on it come from the cache, no read of the accounts table.
    const heldBefore = runtime.readCache!.stats.perUserHits;
    const served = (await as(bob)('GET', feed)).body;
    expect(runtime.readCache!.stats.perUserHits).toBeGreaterThan(heldBefore);

    expect((await as(alice)('PATCH', '/auth/me', { display_name: 'Alice Renamed' })).status).toBe(200);
    expect(nameOnAlicesCard((await as(bob)('GET', feed)).body)).toBe('Alice Renamed');
    expect(nameOnAlicesCard(served)).not.toBe('Alice Renamed');

    // A writer the product does not know of yet (here, a fix in psql) is announced as well: the trigger watches the
    // column, not the code paths.
    await warm(bob, feed);
    await sql`UPDATE users SET display_name = 'Alice By Hand' WHERE id = ${alice.id}`.execute(runtime.database.db);
    expect(nameOnAlicesCard((await as(bob)('GET', feed)).body)).toBe('Alice By Hand');
  });
  it('GET /groups/:id/challenges: a mate’s run and its deletion, a join, a rename and a leave are each in the next read', async () => {
    const path = `/groups/${groupId}/challenges`;
    type Row = { user_id: string; display_name: string; distance_km: number };
    const distanceOf = (data: { weeklyDistance: Row[] }, user: TestUser) =>
      data.weeklyDistance.find((r) => r.user_id === user.id)?.distance_km;
    const members = (data: { weeklyDistance: Row[] }) => data.weeklyDistance.map((r) => r.user_id).sort();
    // Earlier tests' later events (XP, feed cards) announce other topics, but let them pass before warming up.
    await settle(runtime);

    // Bob's run changes Alice's entry through Bob's announcement (`runs`), not hers.
    const before = (await warm(alice, path)).data;
    const posted = await as(bob)('POST', '/runs', runBody('2026-11-18T09:00:00Z', 5));
    expect(posted.status).toBe(201);
    expect(distanceOf((await as(alice)('GET', path)).body.data, bob)).toBe(distanceOf(before, bob)! + 5);
    await settle(runtime);
    await warm(alice, path);
    expect((await as(bob)('DELETE', `/runs/${posted.body.data.id}`)).status).toBe(200);
    expect(distanceOf((await as(alice)('GET', path)).body.data, bob)).toBe(distanceOf(before, bob));

    // A member joins: in the next read of a member whose answer was cached.
    const carol = await createTestUser(runtime, 'carol');
    await settle(runtime);
    await warm(alice, path);
    const code = (await as(alice)('GET', `/groups/${groupId}`)).body.data.invite_code;
    expect((await as(carol)('POST', '/groups/join', { invite_code: code })).status).toBe(200);
    expect(members((await as(alice)('GET', path)).body.data)).toEqual([alice.id, bob.id, carol.id].sort());

    // A rename is in the next read: the members' entry is stale (`profile`, announced by the accounts table's
    // trigger), the figures' entry still a hit (names are not in it).
    await settle(runtime); // the join's later events (XP, badges) announce `xp`: let them pass first
    await warm(alice, path);
    expect((await as(bob)('PATCH', '/auth/me', { display_name: 'Bobby' })).status).toBe(200);
    const hitsBefore = hits();
    const renamed = (await as(alice)('GET', path)).body.data;
    expect(hits()).toBe(hitsBefore + 1);
    expect(renamed.streaks.find((r: Row) => r.user_id === bob.id).display_name).toBe('Bobby');

    // A member who left is refused with their answer still cached, as is someone who never joined; the others no
    // longer see them.
    const outsider = await createTestUser(runtime, 'outsider');
    const refusal = await as(outsider)('GET', path);
    expect(refusal.status).toBe(404);
    await settle(runtime);
    await warm(carol, path);
    await warm(alice, path);
    expect((await as(carol)('POST', `/groups/${groupId}/leave`)).status).toBe(200);
    const left = await as(carol)('GET', path);
    expect(left.status).toBe(404);
    expect(left.body).toEqual(refusal.body);
    expect(members((await as(alice)('GET', path)).body.data)).toEqual([alice.id, bob.id].sort());
    expect((await as(outsider)('GET', path)).status).toBe(404);
  });
  it('GET /groups/:id/challenges: ties keep the members’ order (level, XP, name, id), as before the cache', async () => {
    const twins = [
      await createTestUser(runtime, 'twin'),
      await createTestUser(runtime, 'twin'),
      await createTestUser(runtime, 'twin'),
    ];
    const group = await as(twins[0]!)('POST', '/groups', { name: 'Twins' });
    const code = group.body.data.invite_code;
    for (const twin of twins.slice(1)) {
      expect((await as(twin)('POST', '/groups/join', { invite_code: code })).status).toBe(200);
    }
    // The twin last by id runs (3 km: no 5k): their XP puts them first in the members' order; streaks (all 0) and
    // fastest paces (all none) tie, so those boards keep that order, not the id order.
    const runner = [...twins].sort((a, b) => (a.id < b.id ? 1 : -1))[0]!;
    expect((await as(runner)('POST', '/runs', runBody('2026-11-18T07:30:00Z', 3))).status).toBe(201);
    await settle(runtime);
    const id = group.body.data.id;
    const order = (await as(twins[0]!)('GET', `/groups/${id}/leaderboard`)).body.data.map(
      (m: { user_id: string }) => m.user_id,
    );
    expect(order[0]).toBe(runner.id);
    for (let read = 0; read < 2; read++) {
      const data = (await as(twins[0]!)('GET', `/groups/${id}/challenges`)).body.data;
      for (const board of [data.streaks, data.fastestPaces]) {
        expect(board.map((r: { user_id: string }) => r.user_id)).toEqual(order);
      }
    }
  });
});

/**
 * A streak that changes inside the viewer's week and without a run: weeks settle from Monday 00:00 in New York
 * (05:00 UTC) once over in the goal's zone, so a member in Kiritimati (UTC+14) has a missed week settled (WeekSettled,
 * announced to the member as `streak` only) while a viewer in Honolulu (UTC−10) is still in that week, with the
 * answer cached.
 */
describe.each(databaseTargets())('the challenges’ streaks from the read cache on %s', (target) => {
  let runtime: TestRuntime;
  let kiri: TestUser;
  let hono: TestUser;
  let path: string;
  const as = (user: TestUser) => (method: string, p: string, body?: unknown) =>
    runtime.request(method, p, { token: user.token, ...(body === undefined ? {} : { body }) });
  const hits = () => runtime.readCache?.stats.hits ?? 0;
  const moveTo = async (iso: string) => {
    runtime.clock.set(iso);
    kiri = await freshToken(runtime, kiri);
    hono = await freshToken(runtime, hono);
  };

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-13T12:00:00Z' });
    kiri = await createTestUser(runtime, 'kiri', 'Pacific/Kiritimati');
    hono = await createTestUser(runtime, 'hono', 'Pacific/Honolulu');
    const group = await as(kiri)('POST', '/groups', { name: 'Date Line' });
    path = `/groups/${group.body.data.id}/challenges`;
    expect((await as(hono)('POST', '/groups/join', { invite_code: group.body.data.invite_code })).status).toBe(200);
  }, 120_000);
  afterAll(() => runtime?.close());

  it('a member’s missed week settled before the viewer’s week ends is in the viewer’s next read', async () => {
    const streakOf = (data: { streaks: { user_id: string; current_streak: number }[] }) =>
      data.streaks.find((r) => r.user_id === kiri.id)?.current_streak;
    // The week of Nov 9: completed, a streak of 1.
    expect((await as(kiri)('POST', '/goals', { type: 'count', target_value: 1 })).status).toBe(201);
    expect((await as(kiri)('POST', '/runs', runBody('2026-11-13T10:00:00Z', 3))).status).toBe(201);
    await settle(runtime);
    // The week of Nov 16: a goal, no run. Honolulu's answer cached with Kiri's streak alive.
    await moveTo('2026-11-20T12:00:00Z');
    await runtime.processes.tick();
    await settle(runtime);
    expect((await as(kiri)('POST', '/goals', { type: 'count', target_value: 1 })).status).toBe(201);
    await settle(runtime);
    const friday = (await as(hono)('GET', path)).body.data;
    expect(friday.week_start).toBe('2026-11-16');
    expect(streakOf(friday)).toBe(1);

    // Monday 06:00 UTC: past settlement (01:00 in New York), Sunday 20:00 in Honolulu (the same week).
    await moveTo('2026-11-23T06:00:00Z');
    const before = hits();
    expect((await as(hono)('GET', path)).body.data).toEqual(friday);
    expect(hits()).toBe(before + entriesOf(path));
    await runtime.processes.tick();
    await settle(runtime);
    const sunday = (await as(hono)('GET', path)).body.data;
    expect(sunday.week_start).toBe('2026-11-16');
    expect(streakOf(sunday)).toBe(0);
  });

  it('the viewer’s new time zone is in their next read (the members’ entry holds it, and the zone is announced)', async () => {
    // Still Monday 06:00 UTC: Sunday evening in Honolulu, Monday 07:00 in Paris.
    await settle(runtime);
    const before = hits();
    const honolulu = (await as(hono)('GET', path)).body.data;
    expect(hits()).toBe(before + entriesOf(path));
    expect(honolulu.week_start).toBe('2026-11-16');
    expect((await as(hono)('PATCH', '/auth/me', { timezone: 'Europe/Paris' })).status).toBe(200);
    expect((await as(hono)('GET', path)).body.data.week_start).toBe('2026-11-23');
  });
});

describe.each(databaseTargets())('a saved run’s answer fills the runner’s next GET /goals/current on %s', (target) => {
  // No workers: only the run's own transaction announces anything, so what the next read finds is the answer's fill.
  let runtime: TestRuntime;
  let carol: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const stats = () => runtime.readCache!.stats;

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T17:00:00Z', workers: false });
    carol = await createTestUser(runtime, 'carol');
  }, 120_000);
  afterAll(() => runtime?.close());

  it('answers the read after a run from the rows its answer read, equal to a read from the database', async () => {
    expect((await as(carol)('POST', '/goals', { type: 'distance', target_value: 10 })).status).toBe(201);
    expect((await as(carol)('GET', '/goals/current')).body.data).toMatchObject({ progress: 0 });
    for (const [i, start] of ['2026-11-18T13:00:00Z', '2026-11-18T15:00:00Z'].entries()) {
      const saved = await as(carol)('POST', '/runs', runBody(start, 3));
      expect(saved.status).toBe(201);
      expect(saved.body.goal).toMatchObject({ progress: 3 * (i + 1) });
      const before = stats();
      const next = await as(carol)('GET', '/goals/current');
      expect(stats().hits).toBe(before.hits + 1);
      expect(stats().misses).toBe(before.misses);
      expect(next.body.data).toEqual(saved.body.goal);
      // The same rows the database gives now: the filled entry is exact, not just equal to the answer.
      runtime.readCache!.forgetAll();
      expect((await as(carol)('GET', '/goals/current')).body.data).toEqual(next.body.data);
    }
  });

  it('answers a hit after one round trip for both fresh reads: the session epoch read is the barrier', async () => {
    const hub = runtime.changes;
    const calls = { barrierRead: 0, barrier: 0 };
    const barrierRead = hub.barrierRead.bind(hub);
    const barrier = hub.barrier.bind(hub);
    hub.barrierRead = (text) => {
      calls.barrierRead++;
      return barrierRead(text);
    };
    hub.barrier = () => {
      calls.barrier++;
      return barrier();
    };
    try {
      await as(carol)('GET', '/goals/current');
      const hits = stats().hits;
      calls.barrierRead = 0;
      calls.barrier = 0;
      expect((await as(carol)('GET', '/goals/current')).status).toBe(200);
      expect(stats().hits).toBe(hits + 1);
      expect(calls).toEqual({ barrierRead: 1, barrier: 0 });
    } finally {
      hub.barrierRead = barrierRead;
      hub.barrier = barrier;
    }
  });

  it('keeps nothing a later change made stale: a cancel after the run is in the next read', async () => {
    const current = (await as(carol)('GET', '/goals/current')).body.data;
    expect((await as(carol)('POST', '/runs', runBody('2026-11-18T16:00:00Z', 1))).status).toBe(201);
    expect((await as(carol)('PATCH', `/goals/${current.id}`, { status: 'canceled' })).status).toBe(200);
    expect((await as(carol)('GET', '/goals/current')).body.data).toBeNull();
  });
});
