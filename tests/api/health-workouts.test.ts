import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';

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

/**
 * Issue 24 item 4: workouts from Health Connect and Apple Health are runs with their own source, judged by the run
 * policy as uploads after the fact: no track, so XP and free goals only, never a stake; 7 days back at most.
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

  it('refuses with a sentence: no import_id, a route, an unknown source, an import_id on a GPS run', async () => {
    const post = as(alice);
    const { import_id: _, ...noId } = workout('health_connect', 'x', '2026-11-17T07:00:00Z');
    expect(await post('POST', '/runs', noId)).toMatchObject({
      status: 400,
      body: { error: 'A health store workout needs its import_id' },
    });
    const withRoute = {
      ...workout('health_connect', 'route', '2026-11-17T07:00:00Z'),
      gps_data: { positions: [{ latitude: 51.5, longitude: -0.1, timestamp: Date.parse('2026-11-17T07:00:00Z') }] },
    };
    const route = await post('POST', '/runs', withRoute);
    expect(route.status).toBe(400);
    expect(route.body.error).toMatch(/without its route/);
    const unknown = await post('POST', '/runs', workout('garmin', 'g', '2026-11-17T07:00:00Z'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("source must be 'gps', 'health_connect' or 'apple_health'");
    const gps = await post('POST', '/runs', { ...workout('gps', 'x', '2026-11-17T07:00:00Z') });
    expect(gps.status).toBe(400);
    expect(gps.body.error).toBe('import_id is only for a health store workout');
  });
});
