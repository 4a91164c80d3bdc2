import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

// Monday 16 November 2026, 00:00 in New York: the Monday two weeks on is exactly 14 days ahead.
const MON_NOV_16 = '2026-11-16T05:00:00Z';
// Tuesday 17 November 2026, 00:00 in New York: the Monday after is exactly 6 days ahead.
const TUE_NOV_17 = '2026-11-17T05:00:00Z';
const TOO_SOON =
  'Pauses must be set at least 7 days ahead. The earliest week you can pause starts Monday, November 30.';

/**
 * Pauses with notice (issue 25): POST /goals/pauses at least 7 days ahead (409 with the sentence inside them, 400 for
 * what is not a Monday), idempotent, refused on a week with a goal and a goal refused on a paused week, listed for
 * their owner only, canceled before their week begins; the streak waits across a paused week.
 */
describe.each(databaseTargets())('pauses with notice on %s', (target) => {
  let runtime: TestRuntime;
  let maya: TestUser;
  let other: TestUser;
  let planner: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: MON_NOV_16 });
    maya = await createTestUser(runtime, 'maya', 'America/New_York');
    other = await createTestUser(runtime, 'other', 'America/New_York');
    planner = await createTestUser(runtime, 'planner', 'America/New_York');
  }, 90_000);
  afterAll(() => runtime?.close());

  it('accepts a week fourteen days ahead (201) and lists it', async () => {
    const res = await as(maya)('POST', '/goals/pauses', { week_start: '2026-11-30', reason: 'travel' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      week_start: '2026-11-30',
      week_end: '2026-12-06',
      reason: 'travel',
      time_zone: 'America/New_York',
      week_starts_at: '2026-11-30T05:00:00.000Z',
      cancelable: true,
    });
    const list = await as(maya)('GET', '/goals/pauses');
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { week_start: string }) => p.week_start)).toEqual(['2026-11-30']);
    // At Monday 00:00 exactly, next Monday is exactly 7 days ahead: the earliest week is next week.
    expect(list.body.earliest_week_start).toBe('2026-11-23');
  });

  it('refuses a week that already has a goal, with the way out; the goal is untouched', async () => {
    const goal = await as(planner)('POST', '/goals', { type: 'count', target_value: 3, start: 'next_week' });
    expect(goal.status).toBe(201);
    const res = await as(planner)('POST', '/goals/pauses', { week_start: '2026-11-23', reason: 'injury' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      'You already have a goal for the week of Monday, November 23. Delete that goal first if you want to pause the week.',
    );
    expect((await as(planner)('GET', '/goals/upcoming')).body.data).toMatchObject({ id: goal.body.data.id });
    expect((await as(planner)('GET', '/goals/pauses')).body.data).toEqual([]);
  });

  it('refuses a week six days ahead with the sentence naming the earliest week (409)', async () => {
    runtime.clock.set(TUE_NOV_17);
    maya = await freshToken(runtime, maya);
    other = await freshToken(runtime, other);
    const res = await as(maya)('POST', '/goals/pauses', { week_start: '2026-11-23', reason: 'injury' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: TOO_SOON, code: 'pause_too_soon' });
    expect((await as(maya)('GET', '/goals/pauses')).body.earliest_week_start).toBe('2026-11-30');
  });

  it('the same pause twice is one pause, even inside the seven days', async () => {
    const again = await as(maya)('POST', '/goals/pauses', { week_start: '2026-11-30', reason: 'travel' });
    expect(again.status).toBe(201);
    const list = await as(maya)('GET', '/goals/pauses');
    expect(list.body.data).toHaveLength(1);
    const events = await runtime.store.readStream(`user-goals-${maya.id}`);
    expect(events.filter((e) => e.type === 'WeekPaused')).toHaveLength(1);
  });

  it('answers 400 for a malformed week_start, a date that is not a Monday, and an unknown reason', async () => {
    const post = (body: unknown) => as(maya)('POST', '/goals/pauses', body);
    for (const week_start of ['next week', '2026-13-07', '2026-02-30', 20261207, null]) {
      const res = await post({ week_start });
      expect(res.status, String(week_start)).toBe(400);
      expect(res.body.error).toBe('week_start: must be a date written YYYY-MM-DD, such as 2026-12-07');
    }
    const tuesday = await post({ week_start: '2026-12-08' });
    expect(tuesday.status).toBe(400);
    expect(tuesday.body.error).toBe('Please choose a Monday: a pause covers one Monday–Sunday week.');
    expect((await post({ week_start: '2026-12-07', reason: 'bored' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect((await as(maya)('GET', '/goals/pauses')).body.data).toHaveLength(1);
  });

  it("another user's pause is invisible and cannot be canceled (404)", async () => {
    expect((await as(other)('GET', '/goals/pauses')).body.data).toEqual([]);
    const res = await as(other)('DELETE', '/goals/pauses/2026-11-30');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Pause not found');
    expect((await as(maya)('GET', '/goals/pauses')).body.data).toHaveLength(1);
    expect((await runtime.request('GET', '/goals/pauses')).status).toBe(401);
  });

  it('refuses a goal for a paused week, so the week never has a stake', async () => {
    runtime.clock.set('2026-11-23T15:00:00Z'); // Monday Nov 23: "next week" is the paused one
    maya = await freshToken(runtime, maya);
    const res = await as(maya)('POST', '/goals', { type: 'count', target_value: 2, start: 'next_week' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      'The week of Monday, November 30 is paused. Cancel the pause first if you want to set a goal for it.',
    );
    expect((await as(maya)('GET', '/goals')).body.goals).toEqual([]);
  });

  it('cancels a pause before its week begins (even inside the seven days), not after', async () => {
    const early = await as(maya)('POST', '/goals/pauses', { week_start: '2026-12-14', reason: 'other' });
    expect(early.status).toBe(201);
    const canceled = await as(maya)('DELETE', '/goals/pauses/2026-12-14');
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toEqual({ week_start: '2026-12-14', canceled: true });
    expect((await as(maya)('DELETE', '/goals/pauses/2026-12-14')).status).toBe(404);
    expect((await as(maya)('DELETE', '/goals/pauses/2026-12-1x')).status).toBe(400);
    runtime.clock.set('2026-12-01T15:00:00Z'); // Tuesday of the paused week
    maya = await freshToken(runtime, maya);
    const begun = await as(maya)('DELETE', '/goals/pauses/2026-11-30');
    expect(begun.status).toBe(409);
    expect(begun.body.error).toBe('This pause has already begun, so it can no longer be canceled.');
    const list = (await as(maya)('GET', '/goals/pauses')).body.data;
    expect(list).toMatchObject([{ week_start: '2026-11-30', cancelable: false }]);
  });

  it('declares a rate limit on each pause route', async () => {
    const doc = (await runtime.request('GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/goals/pauses', 'post'],
      ['/goals/pauses', 'get'],
      ['/goals/pauses/{week_start}', 'delete'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.['x-rate-limit'], `${method} ${path}`).toMatchObject({
        class: expect.any(String),
      });
    }
  });
});

describe.each(databaseTargets())('the streak across a paused week on %s', (target) => {
  let runtime: TestRuntime;
  let runner: TestUser;
  const call = (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: runner.token, ...(body === undefined ? {} : { body }) });
  const moveTo = async (iso: string) => {
    runtime.clock.set(iso);
    await runtime.processes.tick();
    await settle(runtime);
    runner = await freshToken(runtime, runner);
  };
  const completeThisWeek = async (runStart: string) => {
    expect((await call('POST', '/goals', { type: 'count', target_value: 1 })).status).toBe(201);
    expect((await call('POST', '/runs', runBody(runStart, 3))).status).toBe(201);
    await settle(runtime);
  };
  const streak = async () => (await call('GET', '/me/streak')).body.data;

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-16T16:00:00Z' });
    runner = await createTestUser(runtime, 'streaker', 'America/New_York');
  }, 90_000);
  afterAll(() => runtime?.close());

  it('a completed week, a paused week, then the week after: the streak is kept, then extended by the next week', async () => {
    await completeThisWeek('2026-11-16T14:00:00Z');
    expect(await streak()).toMatchObject({ current_streak: 1 });
    // Pausing the week after next (Nov 30); the week of Nov 23 is completed too.
    expect((await call('POST', '/goals/pauses', { week_start: '2026-11-30', reason: 'injury' })).status).toBe(201);
    await moveTo('2026-11-23T16:00:00Z');
    await completeThisWeek('2026-11-23T14:00:00Z');
    expect(await streak()).toMatchObject({ current_streak: 2 });
    // During the paused week, and in the week after it: still 2 (without the pause it would have dropped to 0).
    await moveTo('2026-12-02T16:00:00Z');
    expect(await streak()).toMatchObject({ current_streak: 2 });
    await moveTo('2026-12-08T16:00:00Z');
    expect(await streak()).toMatchObject({ current_streak: 2, last_completed_week: '2026-11-23' });
    // A group's streak challenge shows the member the same streak their own dashboard does.
    const group = await call('POST', '/groups', { name: 'Pausers' });
    expect(group.status).toBe(201);
    const challenges = (await call('GET', `/groups/${group.body.data.id}/challenges`)).body.data;
    expect(challenges.streaks).toEqual([expect.objectContaining({ user_id: runner.id, current_streak: 2 })]);
    // The week after the pause completed: 3, the paused week neither broke the streak nor counted in it.
    await completeThisWeek('2026-12-08T14:00:00Z');
    expect(await streak()).toMatchObject({ current_streak: 3, longest_streak: 3 });
    // Still nothing at stake for the paused week: no goal was ever set for it.
    const goals = (await call('GET', '/goals')).body.goals as { period_start: string }[];
    expect(goals.map((g) => g.period_start).sort()).toEqual(['2026-11-16', '2026-11-23', '2026-12-07']);
  });
});
