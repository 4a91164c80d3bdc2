import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseTarget, databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createGoal, deleteRun, endGoal, logRun, settle, type TestUser, testUser } from './gamification-fixtures.ts';

describe.each(databaseTargets())('gamification on %s', (target: DatabaseTarget) => {
  let rt: TestRuntime;
  let a: TestUser;
  let b: TestUser;
  const get = async (path: string, user?: TestUser) => rt.request('GET', path, { token: await (user ?? a).token() });

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T08:00:00Z' });
    a = await testUser(rt, 'ada');
    b = await testUser(rt, 'bob');
  }, 120_000);
  afterAll(async () => rt?.close());

  it('a new user has a zero streak, no XP and level 1', async () => {
    await settle(rt);
    const streak = await get('/me/streak');
    expect(streak.status).toBe(200);
    expect(streak.body).toEqual({
      success: true,
      data: { user_id: a.id, current_streak: 0, longest_streak: 0, last_completed_week: null },
    });
    const xp = await get('/me/xp');
    expect(xp.body.data).toMatchObject({ total_xp: 0, level: 1, tier: 'Rookie Runner' });
  });

  it('in a simulated week: runs, a completed goal, streak, badges and XP awarded exactly once', async () => {
    await createGoal(rt, a.id, 'g1', '2026-11-16');
    // 06:30 in Paris: an early-bird run.
    await logRun(rt, a.id, 'r1', 5, '2026-11-16T05:30:00Z');
    rt.clock.set('2026-11-17T19:00:00Z');
    await logRun(rt, a.id, 'r2', 6, '2026-11-17T17:00:00Z');
    await endGoal(rt, 'g1', 'completed');
    await settle(rt);
    // Redelivery and ticks must not pay twice.
    await rt.processes.tick();
    await settle(rt);

    const history = await get('/me/xp-history');
    expect(history.status).toBe(200);
    const bySource = history.body.data.map((e: { source_type: string; xp_amount: number }) => [
      e.source_type,
      e.xp_amount,
    ]);
    expect(bySource.filter(([t]: [string]) => t === 'run').sort()).toEqual([
      ['run', 50],
      ['run', 60],
    ]);
    expect(bySource.filter(([t]: [string]) => t === 'goal')).toEqual([['goal', 250]]);
    expect(bySource.filter(([t]: [string]) => t === 'streak')).toEqual([['streak', 100]]);
    expect(bySource.filter(([t]: [string]) => t === 'badge')).toHaveLength(4);

    const badges = await get('/me/badges');
    expect(badges.body.data.map((x: { badge_type: string }) => x.badge_type).sort()).toEqual([
      'early_bird',
      'first_goal',
      'first_run',
      'streak_week_1',
    ]);
    const xp = await get('/me/xp');
    // 50 + 60 + 250 + 100 + 4 × 150
    expect(xp.body.data).toMatchObject({ total_xp: 1060, level: 3, level_label: '3', tier: 'Rookie Runner' });
    const streak = await get('/me/streak');
    expect(streak.body.data).toMatchObject({ current_streak: 1, longest_streak: 1, last_completed_week: '2026-11-16' });
  });

  it('a second completed week extends the streak; a week without a goal ends it', async () => {
    rt.clock.set('2026-11-24T10:00:00Z');
    await createGoal(rt, a.id, 'g2', '2026-11-23');
    await endGoal(rt, 'g2', 'completed');
    await settle(rt);
    expect((await get('/me/streak')).body.data).toMatchObject({ current_streak: 2, longest_streak: 2 });
    rt.clock.set('2026-12-08T10:00:00Z');
    expect((await get('/me/streak')).body.data).toMatchObject({
      current_streak: 0,
      longest_streak: 2,
      last_completed_week: '2026-11-23',
    });
  });

  it('XP per run by run ids, and a deleted run takes its XP back', async () => {
    const res = await get('/me/xp-history?run_ids=r1,r2');
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { source_id: string }) => e.source_id).sort()).toEqual(['r1', 'r2']);
    expect(res.body.data.find((e: { source_id: string }) => e.source_id === 'r1')).toMatchObject({
      xp_amount: 50,
      surge_bonus: 0,
      description: 'Run: 5.00 km',
    });
    const before = (await get('/me/xp')).body.data.total_xp;
    await deleteRun(rt, a.id, 'r2');
    await settle(rt);
    const after = await get('/me/xp-history?run_ids=r2');
    expect(after.body.data.map((e: { xp_amount: number }) => e.xp_amount).sort()).toEqual([-60, 60]);
    expect((await get('/me/xp')).body.data.total_xp).toBe(before - 60);
  });

  it("another user's run ids show nothing of theirs", async () => {
    const res = await get('/me/xp-history?run_ids=r1', b);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('bad queries answer 400 with the reason', async () => {
    const cases: Array<[string, string]> = [
      ['/me/xp-history?run_ids=', 'run_ids: give at least one run id'],
      ['/me/xp-history?limit=0', 'limit: must be between 1 and 500'],
      ['/me/xp-history?color=red', 'Unrecognized key: "color"'],
      ['/me/badges?limit=abc', 'limit: must be a number'],
      ['/me/badges?uncelebrated=yes', "uncelebrated: must be 'true' or 'false'"],
      ['/me/streak?x=1', 'Unrecognized key: "x"'],
    ];
    for (const [path, message] of cases) {
      const res = await get(path);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 400, error: message });
    }
  });

  it('needs a bearer token', async () => {
    for (const path of ['/me/streak', '/me/xp', '/me/xp-history', '/me/badges']) {
      const res = await rt.request('GET', path);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Missing bearer token');
    }
    expect((await rt.request('POST', '/me/badges/x/celebrate')).status).toBe(401);
  });

  it('GET /auth/me carries level, tier and XP', async () => {
    const res = await get('/auth/me');
    expect(res.status).toBe(200);
    const { total_xp, level } = (await get('/me/xp')).body.data;
    expect(res.body.user).toMatchObject({ total_xp, level, tier: 'Rookie Runner' });
  });
});
