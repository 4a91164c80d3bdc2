import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

// Wednesday 2026-11-18 12:00 UTC: the week of Monday 2026-11-16 in New York.
describe.each(databaseTargets())('goals API on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  let activeId: string;
  let upcomingId: string;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    alice = await createTestUser(runtime, 'alice', 'America/New_York');
    bob = await createTestUser(runtime, 'bob', 'Asia/Tokyo');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('requires a bearer token', async () => {
    const res = await runtime.request('GET', '/goals/current');
    expect(res.status).toBe(401);
    expect(res.body.error).toBeTypeOf('string');
  });

  it('answers no current and no upcoming goal before any exists', async () => {
    expect((await as(alice)('GET', '/goals/current')).body).toEqual({ success: true, data: null });
    expect((await as(alice)('GET', '/goals/upcoming')).body).toEqual({ success: true, data: null });
  });

  it.each([
    [{ type: 'distance', target_value: 0 }, 'Please enter a valid target value greater than 0'],
    [{ type: 'distance', target_value: 'ten' }, 'Please enter a valid target value greater than 0'],
    [{ type: 'distance', target_value: 900 }, 'Distance goal cannot exceed 804.67 km per week'],
    [{ type: 'distance', target_value: 501, unit: 'mi' }, 'Distance goal cannot exceed 500 mi per week'],
    [{ type: 'count', target_value: 51 }, 'Run count goal cannot exceed 50 runs per week'],
    [{ type: 'count', target_value: 2.5 }, 'Run count must be a whole number'],
    [{ type: 'walk', target_value: 3 }, 'Please choose a distance or run count goal'],
    [
      { type: 'count', target_value: 3, stake_amount_cents: 700 },
      'Please choose a stake of $0, $5, $10, $20, $50 or $100',
    ],
    [{ type: 'count', target_value: 3, charity_id: 'c1' }, 'A charity can only be chosen when there is a stake'],
    [
      { type: 'count', target_value: 3, stake_amount_cents: 1000 },
      'Please add a payment method to put money on the line',
    ],
    // A card the user has not saved (money issue: stakes need a saved card of one's own).
    [
      { type: 'count', target_value: 3, stake_amount_cents: 1000, payment_method_id: 'pm_1' },
      'Please add a payment method to put money on the line',
    ],
  ])('refuses %j with the spec message', async (body, message) => {
    const res = await as(alice)('POST', '/goals', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const res = await runtime.request('POST', '/goals', { token: alice.token, body: '{"type":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Request body must be valid JSON');
  });

  it('creates an active goal for this week in the user zone, and reads it back at once', async () => {
    const res = await as(alice)('POST', '/goals', { type: 'distance', target_value: 10 });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      type: 'distance',
      target_value: 10,
      status: 'active',
      progress: 0,
      percentage: 0,
      period_start: '2026-11-16',
      period_end: '2026-11-22',
      time_zone: 'America/New_York',
      stake_amount_cents: 0,
      message: "Let's get started!",
    });
    activeId = res.body.data.id;
    const current = await as(alice)('GET', '/goals/current');
    expect(current.body.success).toBe(true);
    expect(current.body.data).toMatchObject({
      id: activeId,
      progress: 0,
      target_value: 10,
      type: 'distance',
      percentage: 0,
    });
  });

  it('keeps one goal per week and one upcoming goal', async () => {
    const again = await as(alice)('POST', '/goals', { type: 'count', target_value: 3 });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('You already have a goal for this week');
    const next = await as(alice)('POST', '/goals', { type: 'count', target_value: 3, start: 'next_week' });
    expect(next.status).toBe(201);
    expect(next.body.data).toMatchObject({ status: 'upcoming', period_start: '2026-11-23' });
    upcomingId = next.body.data.id;
    const upcoming = await as(alice)('GET', '/goals/upcoming');
    expect(upcoming.body.data.id).toBe(upcomingId);
  });

  it('lists history with progress as { current, percentage }', async () => {
    const res = await as(alice)('GET', '/goals?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.goals.map((g: { id: string }) => g.id)).toEqual([upcomingId, activeId]);
    expect(res.body.goals[1].progress).toEqual({ current: 0, percentage: 0 });
    expect((await as(bob)('GET', '/goals?limit=100')).body.goals).toEqual([]);
  });

  it.each([
    ['/goals?limit=0', 'limit must be a whole number from 1 to 100'],
    ['/goals?limit=101', 'limit must be a whole number from 1 to 100'],
    ['/goals?limit=abc', 'limit must be a whole number from 1 to 100'],
    ['/goals?status=lost', 'Unknown goal status'],
  ])('refuses the query %s', async (path, message) => {
    const res = await as(alice)('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('reads one goal, and answers 404 for another user or an unknown id', async () => {
    expect((await as(alice)('GET', `/goals/${activeId}`)).body.data.id).toBe(activeId);
    for (const path of [`/goals/${activeId}`, `/goals/${activeId}/stats`, '/goals/nope']) {
      const res = await as(bob)('GET', path);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Goal not found');
    }
  });

  it('answers goal stats with the week runs', async () => {
    await as(alice)('POST', '/runs', runBody('2026-11-17T11:00:00Z', 5));
    await as(alice)('POST', '/runs', runBody('2026-11-14T11:00:00Z', 3)); // the week before: not counted
    const res = await as(alice)('GET', `/goals/${activeId}/stats`);
    expect(res.status).toBe(200);
    expect(res.body.goal).toMatchObject({ id: activeId, progress: 5, percentage: 50 });
    expect(res.body.stats).toEqual({
      total_runs: 1,
      total_distance_km: 5,
      total_duration_sec: 1800,
      average_pace_sec_per_km: 360,
      average_speed_kmh: 10,
    });
    expect(res.body.runs).toHaveLength(1);
    expect(res.body.runs[0]).toMatchObject({
      distance_km: 5,
      duration_sec: 1800,
      started_at: '2026-11-17T11:00:00.000Z',
    });
  });

  it('refuses a bad PATCH and another user’s PATCH or DELETE', async () => {
    const bad = await as(alice)('PATCH', `/goals/${activeId}`, { status: 'active' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Only canceling a goal is supported');
    for (const method of ['PATCH', 'DELETE']) {
      const res = await as(bob)(method, `/goals/${upcomingId}`, { status: 'canceled' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Goal not found');
    }
  });

  it('deletes only an upcoming goal', async () => {
    const active = await as(alice)('DELETE', `/goals/${activeId}`);
    expect(active.status).toBe(409);
    expect(active.body.error).toBe('Only an upcoming goal can be deleted');
    const res = await as(alice)('DELETE', `/goals/${upcomingId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: upcomingId, deleted: true } });
    expect((await as(alice)('GET', '/goals/upcoming')).body.data).toBeNull();
    expect((await as(alice)('GET', `/goals/${upcomingId}`)).status).toBe(404);
    // Its week is free again at once.
    const replan = await as(alice)('POST', '/goals', { type: 'count', target_value: 2, start: 'next_week' });
    expect(replan.status).toBe(201);
    upcomingId = replan.body.data.id;
  });

  it('cancels a goal', async () => {
    const res = await as(alice)('PATCH', `/goals/${upcomingId}`, { status: 'canceled' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: upcomingId, status: 'canceled', stake_forfeited: false });
    const again = await as(alice)('PATCH', `/goals/${upcomingId}`, { status: 'canceled' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Only an upcoming or active goal can be canceled');
    const history = await as(alice)('GET', '/goals?limit=100&status=canceled');
    expect(history.body.goals.map((g: { id: string }) => g.id)).toEqual([upcomingId]);
  });
});
