import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BADGE_DEFINITIONS } from '../../domain/gamification/badge-definitions.ts';
import { type DatabaseTarget, databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { logRun, settle, type TestUser, testUser } from './gamification-fixtures.ts';

describe.each(databaseTargets())('badges on %s', (target: DatabaseTarget) => {
  let rt: TestRuntime;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-10-31T08:00:00Z' });
    a = await testUser(rt, 'ada');
    b = await testUser(rt, 'bob');
    // Saturday 31 October, 07:30 in Paris: first_run and halloween_run; then a half marathon on Sunday.
    await logRun(rt, a.id, 'ra1', 3, '2026-10-31T06:30:00Z');
    await settle(rt);
    rt.clock.set('2026-11-01T12:00:00Z');
    await logRun(rt, a.id, 'ra2', 21.1, '2026-11-01T08:00:00Z');
    await settle(rt);
  }, 120_000);
  afterAll(async () => rt?.close());

  it('GET /badges/definitions lists the 12 definitions, no token needed', async () => {
    const res = await rt.request('GET', '/badges/definitions');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.definitions).toHaveLength(12);
    expect(res.body.definitions).toEqual(BADGE_DEFINITIONS);
    expect((await rt.request('GET', '/badges/definitions?x=1')).status).toBe(400);
  });

  it('GET /me/badges?uncelebrated=true&limit=5: newest first, with display fields', async () => {
    const res = await rt.request('GET', '/me/badges?uncelebrated=true&limit=5', { token: await a.token() });
    expect(res.status).toBe(200);
    const types = res.body.data.map((x: { badge_type: string }) => x.badge_type);
    expect(types.slice(0, 2).sort()).toEqual(['half_marathon', 'weekend_warrior']);
    expect(types.slice(2).sort()).toEqual(['first_run', 'halloween_run']);
    expect(res.body.data[0]).toMatchObject({
      celebrated_at: null,
      icon: expect.any(String),
      color: expect.any(String),
    });
    const two = await rt.request('GET', '/me/badges?uncelebrated=true&limit=2', { token: await a.token() });
    expect(two.body.data).toHaveLength(2);
    const none = await rt.request('GET', '/me/badges', { token: await b.token() });
    expect(none.body).toEqual({ success: true, data: [] });
  });

  it('POST /me/badges/{id}/celebrate: once, read-your-writes, 409 on repeat', async () => {
    const list = await rt.request('GET', '/me/badges?uncelebrated=true&limit=5', { token: await a.token() });
    const badge = list.body.data[0];
    rt.clock.set('2026-11-01T12:05:00Z');
    const res = await rt.request('POST', `/me/badges/${badge.id}/celebrate`, { token: await a.token() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: badge.id, celebrated_at: '2026-11-01T12:05:00.000Z' });
    const after = await rt.request('GET', '/me/badges?uncelebrated=true&limit=5', { token: await a.token() });
    expect(after.body.data.map((x: { id: string }) => x.id)).not.toContain(badge.id);
    const celebrated = await rt.request('GET', '/me/badges?uncelebrated=false', { token: await a.token() });
    expect(celebrated.body.data.map((x: { id: string }) => x.id)).toEqual([badge.id]);
    const again = await rt.request('POST', `/me/badges/${badge.id}/celebrate`, { token: await a.token() });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Badge already celebrated');
  });

  it("another user's badge, or none at all, is 404", async () => {
    const list = await rt.request('GET', '/me/badges', { token: await a.token() });
    const theirs = await rt.request('POST', `/me/badges/${list.body.data[0].id}/celebrate`, { token: await b.token() });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('Badge not found');
    const missing = await rt.request('POST', '/me/badges/00000000-0000-8000-8000-000000000000/celebrate', {
      token: await a.token(),
    });
    expect(missing.status).toBe(404);
    const long = await rt.request('POST', `/me/badges/${'x'.repeat(300)}/celebrate`, { token: await a.token() });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('id: must be letters, digits and _ . : - only (at most 200 characters)');
  });

  it('each badge earned pays 150 XP once', async () => {
    const res = await rt.request('GET', '/me/xp-history', { token: await a.token() });
    const badgeXp = res.body.data.filter((e: { source_type: string }) => e.source_type === 'badge');
    expect(badgeXp).toHaveLength(4);
    expect(badgeXp.every((e: { xp_amount: number }) => e.xp_amount === 150)).toBe(true);
  });
});
