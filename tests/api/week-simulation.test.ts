import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

/**
 * Two weeks of one New York runner with an injected clock, across the end of daylight saving time (Sunday
 * 2026-11-01 02:00 EDT → 01:00 EST): the week of Monday 2026-10-26 lasts 169 hours and ends Monday 2026-11-02
 * 00:00 EST = 05:00Z, not 04:00Z.
 */
describe.each(databaseTargets())('a simulated fortnight on %s', (target) => {
  let runtime: TestRuntime;
  let user: TestUser;
  let firstId: string;
  let secondId: string;
  const call = (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  /** Moves the clock, runs the clock ticks and lets every subscriber catch up. */
  const at = async (instant: string) => {
    runtime.clock.set(instant);
    await settle(runtime);
    await runtime.processes.tick();
    await settle(runtime);
    user = await freshToken(runtime, user);
  };
  const goal = async (id: string) => (await call('GET', `/goals/${id}`)).body.data;

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-10-22T16:00:00Z' }); // Thursday
    user = await createTestUser(runtime, 'nyc', 'America/New_York');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('creates next week’s goal as upcoming', async () => {
    const res = await call('POST', '/goals', { type: 'distance', target_value: 10, start: 'next_week' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'upcoming', period_start: '2026-10-26', period_end: '2026-11-01' });
    firstId = res.body.data.id;
  });

  it('stays upcoming until Monday 00:00 in its zone, then activates', async () => {
    await at('2026-10-26T03:59:00Z'); // Sunday 23:59 EDT
    expect((await goal(firstId)).status).toBe('upcoming');
    await at('2026-10-26T04:00:00Z'); // Monday 00:00 EDT
    expect((await goal(firstId)).status).toBe('active');
    expect((await call('GET', '/goals/current')).body.data.id).toBe(firstId);
  });

  it('logs runs, and completes the goal at 100% with a run on the DST Sunday night', async () => {
    await at('2026-10-27T23:00:00Z');
    await call('POST', '/runs', runBody('2026-10-27T22:00:00Z', 5));
    await at('2026-10-28T12:00:00Z');
    expect(await goal(firstId)).toMatchObject({ status: 'active', progress: 5, percentage: 50 });
    // Planned during week one: the next week's goal is a count goal.
    const next = await call('POST', '/goals', { type: 'count', target_value: 3, start: 'next_week' });
    expect(next.body.data).toMatchObject({ status: 'upcoming', period_start: '2026-11-02' });
    secondId = next.body.data.id;
    // Sunday 2026-11-01 23:30 EST = 04:30Z Monday: still inside the 169-hour week.
    await at('2026-11-02T04:40:00Z');
    const saved = await call('POST', '/runs', runBody('2026-11-02T04:30:00Z', 5));
    expect(saved.body.goal).toMatchObject({ id: firstId, percentage: 100 });
    // The completion is recorded by the goal-lifecycle process manager (asynchronous) at the time it sees the run.
    // POST /runs no longer waits for a worker (its read models are inline), so let the workers see it before the
    // clock moves on, as they would within milliseconds in real time.
    await settle(runtime);
    await at('2026-11-02T04:45:00Z');
    expect(await goal(firstId)).toMatchObject({ status: 'completed', progress: 10, percentage: 100 });
    expect((await goal(firstId)).completed_at).toBe('2026-11-02T04:40:00.000Z');
    expect((await goal(secondId)).status).toBe('upcoming');
  });

  it('activates the second week at 05:00Z (00:00 EST) and keeps the first one completed', async () => {
    await at('2026-11-02T05:00:00Z');
    expect((await goal(secondId)).status).toBe('active');
    expect((await goal(firstId)).status).toBe('completed');
    await at('2026-11-03T13:00:00Z');
    expect((await call('POST', '/runs', runBody('2026-11-03T12:00:00Z', 3))).status).toBe(201);
    await at('2026-11-04T12:00:00Z');
    expect(await goal(secondId)).toMatchObject({ status: 'active', progress: 1, percentage: 33 });
  });

  it('misses the second week only once it has ended and may be settled', async () => {
    await at('2026-11-09T04:59:00Z'); // Sunday 23:59 EST
    expect((await goal(secondId)).status).toBe('active');
    await at('2026-11-09T05:00:00Z');
    expect(await goal(secondId)).toMatchObject({ status: 'missed', progress: 1, percentage: 33 });
    const history = await call('GET', '/goals?limit=100');
    expect(history.body.goals.map((g: { id: string; status: string }) => [g.id, g.status])).toEqual([
      [secondId, 'missed'],
      [firstId, 'completed'],
    ]);
    // Repeated ticks change nothing.
    await at('2026-11-09T06:00:00Z');
    const events = await runtime.store.readStream(`goal-${secondId}`);
    expect(events.filter((e) => e.type === 'GoalMissed')).toHaveLength(1);
  });
});
