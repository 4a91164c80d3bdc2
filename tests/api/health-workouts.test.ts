import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GpsPosition } from '../../domain/run/geo.ts';
import { cycle, saveCard } from '../money/money-fixtures.ts';
import { honestTrack } from '../support/run-tracks.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, type TestUser } from '../support/users.ts';

/** A running workout as the native shell's health import posts it (native/src/health-import.ts). */
function workout(source: string, importId: string, startedAt: string, km = 5, sec = 1_800) {
  return {
    started_at: startedAt,
    distance_km: km,
    duration_sec: sec,
    source,
    import_id: importId,
    gps_data: { positions: [] },
    notes: null,
  };
}

/** The same workout with its route (Health Connect's exercise route, HealthKit's workout route) as its fixes. */
function workoutWithRoute(source: string, importId: string, route: { positions: GpsPosition[]; durationSec: number }) {
  const startedAt = new Date(route.positions[0]!.timestamp).toISOString();
  return {
    ...workout(source, importId, startedAt, 5, Math.ceil(route.durationSec)),
    gps_data: { positions: route.positions },
  };
}

/**
 * Issue 24 item 4: workouts from Health Connect and Apple Health are runs with their own source, judged by the run
 * policy as uploads after the fact: without a route XP and free goals only, never a stake; with their route a track
 * uploaded after the fact (toward a stake only within 2 hours of the end); 7 days back at most.
 */
describe.each(databaseTargets())('health store workouts through POST /runs on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    alice = await createTestUser(runtime, 'alice', 'Europe/London');
    bob = await createTestUser(runtime, 'bob');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('saves a Health Connect run with its source, counted for XP and not toward a stake (no track)', async () => {
    const res = await as(alice)('POST', '/runs', workout('health_connect', 'hc-1', '2026-11-17T07:00:00Z'));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ source: 'health_connect', distance_km: 5, duration_sec: 1_800 });
    expect(res.body.data.verification.stake_distance_km).toBe(0);
    expect(res.body.data.verification.xp_distance_km).toBeGreaterThan(0);
  });

  it('saves an Apple Health run as apple_health', async () => {
    const res = await as(alice)('POST', '/runs', workout('apple_health', 'AB-12', '2026-11-16T07:00:00Z', 3.2, 1_200));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ source: 'apple_health', distance_km: 3.2 });
  });

  it('the same workout posted twice is one run', async () => {
    const first = await as(alice)('POST', '/runs', workout('health_connect', 'hc-twice', '2026-11-15T07:00:00Z'));
    const second = await as(alice)('POST', '/runs', workout('health_connect', 'hc-twice', '2026-11-15T07:00:00Z'));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.data.id).toBe(first.body.data.id);
    const list = await as(alice)('GET', '/runs');
    expect(list.body.data.filter((r: { id: string }) => r.id === first.body.data.id)).toHaveLength(1);
  });

  it("another runner's workout id names their own run, never someone else's", async () => {
    const alices = await as(alice)('POST', '/runs', workout('health_connect', 'shared-id', '2026-11-17T09:00:00Z'));
    const bobs = await as(bob)('POST', '/runs', workout('health_connect', 'shared-id', '2026-11-17T09:00:00Z'));
    expect(bobs.status).toBe(201);
    expect(bobs.body.data.id).not.toBe(alices.body.data.id);
    expect((await as(bob)('GET', `/runs/${alices.body.data.id}`)).status).toBe(404);
  });

  it('is held to the upload rules: at most 7 days back', async () => {
    const res = await as(alice)('POST', '/runs', workout('apple_health', 'old', '2026-11-10T07:00:00Z'));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error).toMatch(/7 days/);
  });

  it('refuses with a sentence: no import_id, an unknown source, an import_id on a GPS run', async () => {
    const post = as(alice);
    const { import_id: _, ...noId } = workout('health_connect', 'x', '2026-11-17T07:00:00Z');
    expect(await post('POST', '/runs', noId)).toMatchObject({
      status: 400,
      body: { error: 'A health store workout needs its import_id' },
    });
    const unknown = await post('POST', '/runs', workout('garmin', 'g', '2026-11-17T07:00:00Z'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("source must be 'gps', 'health_connect' or 'apple_health'");
    const gps = await post('POST', '/runs', { ...workout('gps', 'x', '2026-11-17T07:00:00Z') });
    expect(gps.status).toBe(400);
    expect(gps.body.error).toBe('import_id is only for a health store workout');
  });

  it('a route that arrives within 2 hours of the end is measured from its fixes and counts toward a stake', async () => {
    // The clock is at 12:00; the run ended about 10:58.
    const track = honestTrack('2026-11-18T10:30:00Z', { seed: 24 });
    const res = await as(alice)('POST', '/runs', workoutWithRoute('health_connect', 'hc-route-fresh', track));
    expect(res.status).toBe(201);
    const v = res.body.data.verification;
    expect(res.body.data.source).toBe('health_connect');
    expect(v.reasons).not.toContain('uploaded_late');
    expect(v.stake_distance_km).toBeGreaterThan(0);
    expect(Math.abs(v.stake_distance_km - track.trueKm) / track.trueKm).toBeLessThan(0.05);
    // Its distance is the route's, not the store's figure (5 km claimed in the body).
    expect(Math.abs(res.body.data.distance_km - track.trueKm) / track.trueKm).toBeLessThan(0.05);
    // Sent again (the next import, a retry): the same run.
    const again = await as(alice)('POST', '/runs', workoutWithRoute('health_connect', 'hc-route-fresh', track));
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(res.body.data.id);
  });

  it('a route sent 3 hours after the end is uploaded late: XP, not a stake', async () => {
    const track = honestTrack('2026-11-18T08:30:00Z', { seed: 25 });
    const end = track.positions.at(-1)!.timestamp;
    expect(Date.parse('2026-11-18T12:00:00Z') - end).toBeGreaterThan(3 * 3_600_000);
    const res = await as(alice)('POST', '/runs', workoutWithRoute('apple_health', 'AH-route-late', track));
    expect(res.status).toBe(201);
    const v = res.body.data.verification;
    expect(res.body.data.source).toBe('apple_health');
    expect(v.reasons).toContain('uploaded_late');
    expect(v.stake_distance_km).toBe(0);
    expect(v.xp_distance_km).toBeGreaterThan(0);
  });

  it('refuses a hostile route with a sentence and saves nothing', async () => {
    const post = as(alice);
    const before = (await post('GET', '/runs')).body.data.length;
    const track = honestTrack('2026-11-18T09:00:00Z', { seed: 26 });
    const body = workoutWithRoute('health_connect', 'hc-hostile', track);
    const positions = body.gps_data.positions;
    const swapped = [...positions];
    [swapped[10], swapped[11]] = [swapped[11]!, swapped[10]!];
    const outOfOrder = await post('POST', '/runs', { ...body, gps_data: { positions: swapped } });
    expect(outOfOrder).toMatchObject({
      status: 400,
      body: { error: 'A health store route must list its points in time order' },
    });
    // Yesterday's track under today's workout.
    const elsewhere = positions.map((p) => ({ ...p, timestamp: p.timestamp - 86_400_000 }));
    const outside = await post('POST', '/runs', { ...body, gps_data: { positions: elsewhere } });
    expect(outside).toMatchObject({
      status: 400,
      body: { error: "A health store route must lie inside its workout's time (give or take 2 minutes)" },
    });
    // One fix past the workout's end.
    const tail = { ...positions.at(-1)!, timestamp: positions.at(-1)!.timestamp + 10 * 60_000 };
    expect((await post('POST', '/runs', { ...body, gps_data: { positions: [...positions, tail] } })).status).toBe(400);
    // More points than a run may carry.
    const t0 = Date.parse(body.started_at);
    const flood = Array.from({ length: 100_001 }, (_, i) => ({ latitude: 51, longitude: 0, timestamp: t0 + i * 10 }));
    const tooMany = await post('POST', '/runs', { ...body, gps_data: { positions: flood } });
    expect(tooMany.status).toBeGreaterThanOrEqual(400);
    expect(tooMany.status).toBeLessThan(500);
    expect(tooMany.body.error).toMatch(/too large|at most 100000 GPS positions/);
    expect((await post('GET', '/runs')).body.data.length).toBe(before);
    // The workout itself, sent as it should be, is saved: nothing was kept under its id.
    expect((await post('POST', '/runs', body)).status).toBe(201);
  });

  it("another runner's route under the same workout id is their own run and leaves the first one's alone", async () => {
    const alicesTrack = honestTrack('2026-11-18T10:00:00Z', { seed: 27 });
    const alices = await as(alice)('POST', '/runs', workoutWithRoute('health_connect', 'same-route-id', alicesTrack));
    const bobsTrack = honestTrack('2026-11-18T09:00:00Z', { seed: 28, km: 3 });
    const bobs = await as(bob)('POST', '/runs', workoutWithRoute('health_connect', 'same-route-id', bobsTrack));
    expect(alices.status).toBe(201);
    expect(bobs.status).toBe(201);
    expect(bobs.body.data.id).not.toBe(alices.body.data.id);
    expect((await as(bob)('GET', `/runs/${alices.body.data.id}`)).status).toBe(404);
    expect((await as(bob)('DELETE', `/runs/${alices.body.data.id}`)).status).toBe(404);
    const still = await as(alice)('GET', `/runs/${alices.body.data.id}`);
    expect(still.body.data.distance_km).toBe(alices.body.data.distance_km);
  });
});

/**
 * The same through a staked goal's progress: a health route counts toward a $100 distance goal when it arrives within
 * 2 hours of the workout's end, and only then (New York week of Monday 2026-11-16; the clock only moves forward).
 */
describe.each(databaseTargets())('health store routes toward a staked goal on %s', (target) => {
  let rt: TestRuntime;
  let carol: TestUser;
  let goalId: string;
  const post = async (body: unknown) => {
    carol = await freshToken(rt, carol);
    return rt.request('POST', '/runs', { token: carol.token, body });
  };
  const progress = async () => {
    await cycle(rt);
    carol = await freshToken(rt, carol);
    return (await rt.request('GET', `/goals/${goalId}`, { token: carol.token })).body.data.progress as number;
  };

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T13:00:00Z' });
    carol = await createTestUser(rt, 'carol');
    const pm = await saveCard(rt, carol);
    const res = await rt.request('POST', '/goals', {
      token: carol.token,
      body: { type: 'distance', target_value: 30, stake_amount_cents: 10_000, payment_method_id: pm },
    });
    if (res.status !== 201) throw new Error(`POST /goals: ${res.status} ${res.text}`);
    goalId = res.body.data.id;
    await cycle(rt);
  }, 120_000);
  afterAll(() => rt?.close());

  it('within 2 hours of the end: its stake distance is the goal’s progress', async () => {
    const track = honestTrack('2026-11-16T14:00:00Z', { seed: 31 });
    rt.clock.set(new Date(track.positions.at(-1)!.timestamp + 90 * 60_000).toISOString());
    const res = await post(workoutWithRoute('health_connect', 'hc-staked', track));
    expect(res.status).toBe(201);
    const stakeKm = res.body.data.verification.stake_distance_km;
    expect(Math.abs(stakeKm - track.trueKm) / track.trueKm).toBeLessThan(0.05);
    expect(await progress()).toBeCloseTo(stakeKm, 2);
  });

  it('3 hours after the end, or without a route: XP, and the goal’s progress does not move', async () => {
    const before = await progress();
    const late = honestTrack('2026-11-16T18:00:00Z', { seed: 32 });
    rt.clock.set(new Date(late.positions.at(-1)!.timestamp + 3 * 3_600_000).toISOString());
    const res = await post(workoutWithRoute('apple_health', 'AH-staked-late', late));
    expect(res.status).toBe(201);
    expect(res.body.data.verification.reasons).toContain('uploaded_late');
    expect(res.body.data.verification.stake_distance_km).toBe(0);
    expect(res.body.data.verification.xp_distance_km).toBeGreaterThan(0);
    const noRoute = await post(workout('health_connect', 'hc-staked-plain', '2026-11-16T20:00:00Z', 8, 2_700));
    expect(noRoute.status).toBe(201);
    expect(noRoute.body.data.verification.stake_distance_km).toBe(0);
    expect(await progress()).toBeCloseTo(before, 2);
  });
});
