import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

// Issue 26 item 3, the API's side: one run, one pace. A GPS jump the run policy drops adds no distance, so the pace
// the API sends is the run's time over the distance the policy counts (what every screen of the app shows), not over
// the distance the track claimed.
describe.each(databaseTargets())('a run’s pace in the API, on %s', (target) => {
  let rt: TestRuntime;
  let ana: TestUser;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    ana = await createTestUser(rt, 'ana');
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  it('is the time over the counted distance when a jump was left out, in the run and in its goal’s stats', async () => {
    const goal = await rt.request('POST', '/goals', { token: ana.token, body: { type: 'distance', target_value: 20 } });
    expect(goal.status).toBe(201);
    const body = runBody('2026-11-18T07:00:00Z', 5);
    const positions = body.gps_data.positions;
    // From the middle fix on, the track sits 0.0035° of latitude (≈ 390 m) further north: one jump in 30 s.
    const jumped = positions.map((p, i) => (i >= positions.length / 2 ? { ...p, latitude: p.latitude + 0.0035 } : p));
    const res = await rt.request('POST', '/runs', {
      token: ana.token,
      body: { ...body, distance_km: 5.39, gps_data: { positions: jumped } },
    });
    expect(res.status).toBe(201);
    const run = res.body.data as {
      duration_sec: number;
      pace_sec_per_km: number;
      verification: { xp_distance_km: number; excluded: { reason: string }[] };
    };
    expect(run.verification.excluded.map((p) => p.reason)).toContain('teleport_segment');
    expect(run.verification.xp_distance_km).toBeLessThan(5.39);
    expect(run.pace_sec_per_km).toBe(Math.round(run.duration_sec / run.verification.xp_distance_km));
    const listed = (await rt.request('GET', '/runs', { token: ana.token })).body.data[0];
    expect(listed.pace_sec_per_km).toBe(run.pace_sec_per_km);
    // The goal's statistics add up the same figures (the counted distance, not the claimed one).
    const stats = (await rt.request('GET', `/goals/${goal.body.data.id}/stats`, { token: ana.token })).body.stats;
    expect(stats.total_distance_km).toBeCloseTo(run.verification.xp_distance_km, 2);
    expect(stats.average_pace_sec_per_km).toBe(run.pace_sec_per_km);
  });
});
