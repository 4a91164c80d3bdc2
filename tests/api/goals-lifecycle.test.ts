import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

/**
 * The completion rule (domain/goal/decide.ts "Completion and deleted runs"): completed once progress reaches 100%;
 * a counted run deleted before the week is settled withdraws the completion when progress falls below the target
 * (the goal is active again and can complete again, its XP week settled once); at settlement a completed week is
 * closed and frozen, and nothing changes it afterwards.
 */
describe.each(databaseTargets())('goal completion on %s', (target) => {
  let runtime: TestRuntime;
  let user: TestUser;
  let goalId: string;
  const call = (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const goal = async () => (await call('GET', `/goals/${goalId}`)).body.data;
  const goalEvents = async (type: string) =>
    (await runtime.store.readStream(`goal-${goalId}`)).filter((e) => e.type === type);

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    user = await createTestUser(runtime, 'tokyo', 'Asia/Tokyo');
    goalId = (await call('POST', '/goals', { type: 'distance', target_value: 10 })).body.data.id;
  }, 60_000);
  afterAll(() => runtime?.close());

  it('completes the moment progress reaches 100%, once', async () => {
    await call('POST', '/runs', runBody('2026-11-17T00:00:00Z', 5));
    await settle(runtime);
    expect(await goal()).toMatchObject({ status: 'active', percentage: 50, message: 'Halfway there! Keep it up!' });
    const last = await call('POST', '/runs', runBody('2026-11-18T00:00:00Z', 5));
    expect(last.body.goal).toMatchObject({ id: goalId, percentage: 100 });
    await settle(runtime);
    expect(await goal()).toMatchObject({
      status: 'completed',
      progress: 10,
      percentage: 100,
      message: 'Goal achieved!',
      completed_at: '2026-11-18T12:00:00.000Z',
      completed_progress: 10,
    });
    expect(await goalEvents('GoalCompleted')).toHaveLength(1);
  });

  it('withdraws the completion when a counted run is deleted before settlement, and completes again', async () => {
    const runs = (await call('GET', '/runs')).body.data;
    await call('DELETE', `/runs/${runs[0].id}`);
    await settle(runtime);
    expect(await goal()).toMatchObject({ status: 'active', progress: 5, percentage: 50, completed_at: null });
    expect(await goalEvents('GoalCompletionWithdrawn')).toHaveLength(1);
    // Back over 100% with a new run: completed again, and the goal's XP week is still settled only once.
    await call('POST', '/runs', runBody('2026-11-18T02:00:00Z', 5));
    await settle(runtime);
    expect(await goal()).toMatchObject({ status: 'completed', progress: 10 });
    expect(await goalEvents('GoalCompleted')).toHaveLength(2);
    const ledger = await runtime.store.readStream(`xp-${user.id}`);
    expect(ledger.filter((e) => e.type === 'WeekSettled')).toHaveLength(1);
  });

  it('closes the completed week at settlement; a run deleted afterwards changes nothing', async () => {
    runtime.clock.set('2026-11-23T06:00:00Z'); // after Monday 00:00 New York, long after the Tokyo week ended
    await runtime.processes.tick();
    await settle(runtime);
    user = await freshToken(runtime, user);
    expect(await goal()).toMatchObject({ status: 'completed', progress: 10 });
    expect(await goalEvents('GoalWeekClosed')).toHaveLength(1);
    expect(await goalEvents('GoalMissed')).toHaveLength(0);
    const runs = (await call('GET', '/runs')).body.data;
    expect((await call('DELETE', `/runs/${runs[0].id}`)).status).toBe(200);
    await settle(runtime);
    await runtime.processes.tick();
    await settle(runtime);
    expect(await goal()).toMatchObject({ status: 'completed', progress: 10 });
    expect(await goalEvents('GoalCompletionWithdrawn')).toHaveLength(1);
  });

  it('rebuilds the runs and goals read models identical to the live ones', async () => {
    const snapshot = async (table: string) =>
      (await sql.raw(`SELECT * FROM ${table} ORDER BY 1`).execute(runtime.database.db)).rows;
    const before = {
      runs: await snapshot('runs'),
      goals: await snapshot('goals'),
      facts: await snapshot('goal_run_facts'),
    };
    await runtime.projections.rebuild('runs');
    await runtime.projections.rebuild('goals');
    expect({
      runs: await snapshot('runs'),
      goals: await snapshot('goals'),
      facts: await snapshot('goal_run_facts'),
    }).toEqual(before);
  });
});
