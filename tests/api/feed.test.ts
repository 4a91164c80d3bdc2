import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

const meta = (at: string) => ({
  eventId: randomUUID(),
  occurredAt: at,
  actorId: null,
  correlationId: 'test',
  causationId: null,
  schemaVersion: 1,
});

// Week of Monday 2026-11-16, both users in New York; runs at 12:00 local (17:00 UTC), no weekend, no early bird.
describe.each(databaseTargets())('feed, reactions and a simulated week on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let groupId: string;
  let aliceMondayRun: string;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const day = async (iso: string) => {
    runtime.clock.set(iso);
    [alice, bob, eve] = await Promise.all([
      freshToken(runtime, alice),
      freshToken(runtime, bob),
      freshToken(runtime, eve),
    ]);
  };
  /** A run synced from Strava, as the import would record it. */
  const stravaRun = async (user: TestUser, startedAt: string, km: number, sec: number) => {
    const runId = randomUUID();
    await runtime.store.appendToStream(`run-${runId}`, [
      {
        type: 'RunRecorded',
        data: {
          runId,
          userId: user.id,
          source: 'strava',
          importId: `a${runId}`,
          startedAt,
          distanceKm: km,
          durationSec: sec,
          positions: [],
          importFlags: { manual: false, trainer: false, flagged: false, sportType: 'Run' },
          notes: null,
          verification: { verdict: 'verified', reasons: [], trustedDistanceKm: km, policyVersion: 1 },
          recordedAt: runtime.clock.now().toISOString(),
        },
        metadata: meta(runtime.clock.now().toISOString()),
      },
    ]);
  };

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-16T14:00:00Z' });
    alice = await createTestUser(runtime, 'alice');
    bob = await createTestUser(runtime, 'bob');
    eve = await createTestUser(runtime, 'eve');
    const group = await as(alice)('POST', '/groups', { name: 'Lunch Runners' });
    groupId = group.body.data.id;
    await as(bob)('POST', '/groups/join', { invite_code: group.body.data.invite_code });

    await day('2026-11-16T17:00:00Z'); // Monday
    aliceMondayRun = (await as(alice)('POST', '/runs', runBody('2026-11-16T17:00:00Z', 5))).body.data.id;
    await day('2026-11-17T17:00:00Z'); // Tuesday
    await as(bob)('POST', '/runs', runBody('2026-11-17T17:00:00Z', 8));
    await day('2026-11-18T17:00:00Z'); // Wednesday
    await as(alice)('POST', '/runs', runBody('2026-11-18T17:00:00Z', 4));
    await stravaRun(bob, '2026-11-18T16:00:00Z', 8, 2400);
    await day('2026-11-19T17:00:00Z'); // Thursday
    await settle(runtime);
  }, 120_000);
  afterAll(() => runtime?.close());

  it('shows the group feed to both members, newest first, with Strava data only for its owner', async () => {
    const a = await as(alice)('GET', `/feed?group_id=${groupId}&filter=runs`);
    expect(a.status).toBe(200);
    expect(
      a.body.data.map((e: { display_name: string; event_data: { distance_km?: number; synced: boolean } }) => [
        e.display_name,
        e.event_data.distance_km,
        e.event_data.synced,
      ]),
    ).toEqual([
      ['bob', undefined, true],
      ['alice', 4, false],
      ['bob', 8, false],
      ['alice', 5, false],
    ]);
    // The other member sees "a synced run": author only, nothing from Strava (distance, time, pace, XP).
    expect(a.body.data[0].event_data).toEqual({ user_name: 'bob', synced: true });
    const b = await as(bob)('GET', `/feed?group_id=${groupId}&filter=runs`);
    expect(b.body.data[0].event_data).toMatchObject({
      user_name: 'bob',
      distance_km: 8,
      duration_sec: 2400,
      pace: 300,
      synced: true,
    });
    // §3 fields of a GPS run card: 5 km in 30 min, pace 360 s/km, 10 XP per km.
    expect(b.body.data[3]).toMatchObject({
      id: `run-${aliceMondayRun}`,
      user_id: alice.id,
      group_id: groupId,
      event_type: 'run_completed',
      is_visible: true,
      event_data: { user_name: 'alice', distance_km: 5, duration_sec: 1800, pace: 360, xp_earned: 50, surge_bonus: 0 },
    });
  });

  it('filters by kind and shows own events without a group', async () => {
    const own = await as(alice)('GET', '/feed');
    expect(own.body.data.length).toBeGreaterThanOrEqual(2);
    expect(
      own.body.data.every((e: { user_id: string; group_id: null }) => e.user_id === alice.id && e.group_id === null),
    ).toBe(true);
    const badges = await as(alice)('GET', '/feed?filter=badges');
    expect(badges.body.data.every((e: { event_type: string }) => e.event_type === 'badge_earned')).toBe(true);
    const stakes = await as(alice)('GET', '/feed?filter=stakes');
    expect(stakes.body.data).toEqual([]);
    expect((await as(eve)('GET', `/feed?group_id=${groupId}`)).status).toBe(404);
    const badCursor = await as(alice)('GET', '/feed?cursor=abc');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error).toBe('Invalid cursor');
  });

  it('reacts: counts and who, one of each kind, only one’s own removed, outsiders get 404', async () => {
    const card = `run-${aliceMondayRun}`;
    expect((await as(bob)('POST', `/feed/${card}/reactions`, { emoji: 'fire' })).status).toBe(201);
    expect((await as(bob)('POST', `/feed/${card}/reactions`, { emoji: 'clap' })).status).toBe(201);
    const mine = await as(alice)('POST', `/feed/${card}/reactions`, { emoji: 'fire' });
    expect(mine.body.data).toMatchObject({ thumbs_up: 0, clap: 1, fire: 2 });
    const twice = await as(bob)('POST', `/feed/${card}/reactions`, { emoji: 'fire' });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('You have already reacted with this emoji');
    const bad = await as(bob)('POST', `/feed/${card}/reactions`, { emoji: 'heart' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Unknown reaction');
    expect((await as(eve)('POST', `/feed/${card}/reactions`, { emoji: 'fire' })).status).toBe(404);
    expect((await as(eve)('DELETE', `/feed/${card}/reactions/fire`)).body.error).toBe('Feed event not found');
    const notHers = await as(alice)('DELETE', `/feed/${card}/reactions/clap`);
    expect(notHers.status).toBe(404);
    expect(notHers.body.error).toBe('Reaction not found');
    const removed = await as(bob)('DELETE', `/feed/${card}/reactions/clap`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ thumbs_up: 0, clap: 0, fire: 2 });
    const feed = await as(bob)('GET', `/feed?group_id=${groupId}&filter=runs`);
    const reactions = feed.body.data.find((e: { id: string }) => e.id === card).reactions;
    expect(
      reactions.reactions.map((r: { display_name: string; emoji: string }) => [r.display_name, r.emoji]).sort(),
    ).toEqual([
      ['alice', 'fire'],
      ['bob', 'fire'],
    ]);
  });

  it('orders the leaderboard by level then XP, without other members’ Strava XP', async () => {
    // alice: 9 km GPS = 90 XP + first_run badge 150 = 240. bob: 8 km GPS = 80 + 150 = 230, Strava 8 km = 80 more.
    const a = await as(alice)('GET', `/groups/${groupId}/leaderboard`);
    expect(
      a.body.data.map((m: { display_name: string; level: number; total_xp: number }) => [
        m.display_name,
        m.level,
        m.total_xp,
      ]),
    ).toEqual([
      ['alice', 2, 240],
      ['bob', 2, 230],
    ]);
    const b = await as(bob)('GET', `/groups/${groupId}/leaderboard`);
    expect(b.body.data.map((m: { display_name: string; total_xp: number }) => [m.display_name, m.total_xp])).toEqual([
      ['bob', 310],
      ['alice', 240],
    ]);
  });

  it('computes the challenges by hand-checked figures, per viewer', async () => {
    const a = (await as(alice)('GET', `/groups/${groupId}/challenges`)).body.data;
    expect(a.week_start).toBe('2026-11-16');
    expect(
      a.weeklyDistance.map((r: { display_name: string; distance_km: number }) => [r.display_name, r.distance_km]),
    ).toEqual([
      ['alice', 9],
      ['bob', 8],
    ]);
    expect(a.streaks).toEqual([
      { user_id: alice.id, display_name: 'alice', current_streak: 0, longest_streak: 0 },
      { user_id: bob.id, display_name: 'bob', current_streak: 0, longest_streak: 0 },
    ]);
    expect(a.fastestPaces).toEqual([
      {
        user_id: alice.id,
        display_name: 'alice',
        fastest_5k_pace: 360,
        fastest_5k_time: 1800,
        fastest_10k_pace: null,
        fastest_10k_time: null,
      },
      {
        user_id: bob.id,
        display_name: 'bob',
        fastest_5k_pace: 360,
        fastest_5k_time: 1800,
        fastest_10k_pace: null,
        fastest_10k_time: null,
      },
    ]);
    const b = (await as(bob)('GET', `/groups/${groupId}/challenges`)).body.data;
    expect(
      b.weeklyDistance.map((r: { display_name: string; distance_km: number }) => [r.display_name, r.distance_km]),
    ).toEqual([
      ['bob', 16],
      ['alice', 9],
    ]);
    expect(b.fastestPaces[0]).toMatchObject({ display_name: 'bob', fastest_5k_pace: 300, fastest_5k_time: 1500 });
  });

  it('sums the weekly recap', async () => {
    const res = await as(alice)('GET', `/groups/${groupId}/recap?week_start=2026-11-16`);
    expect(res.body.data).toMatchObject({
      week_start: '2026-11-16',
      week_end: '2026-11-22',
      total_distance_km: 17,
      total_runs: 3,
      goals_met: 0,
      member_count: 2,
    });
    expect(
      res.body.data.top_performers.map((p: { display_name: string; distance_km: number; runs: number }) => [
        p.display_name,
        p.distance_km,
        p.runs,
      ]),
    ).toEqual([
      ['alice', 9, 2],
      ['bob', 8, 1],
    ]);
    const empty = await as(alice)('GET', `/groups/${groupId}/recap?week_start=2026-11-09`);
    expect(empty.body.data).toMatchObject({ total_distance_km: 0, total_runs: 0, top_performers: [] });
  });

  it('pages the feed by 20 with a cursor', async () => {
    for (let i = 0; i < 22; i++) await stravaRun(eve, `2026-11-1${i % 3}T10:00:00Z`, 1, 400);
    await settle(runtime);
    const first = await as(eve)('GET', '/feed?filter=runs');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.next_cursor).toMatch(/^\d+$/);
    const second = await as(eve)('GET', `/feed?filter=runs&cursor=${first.body.next_cursor}`);
    expect(second.body.data).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
  });
});
