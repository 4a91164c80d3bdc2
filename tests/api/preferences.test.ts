import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';

describe.each(databaseTargets())('preferences API on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    runtime = await startTestRuntime(target);
    alice = await createTestUser(runtime, 'alice');
    bob = await createTestUser(runtime, 'bob');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('requires sign-in', async () => {
    expect((await runtime.request('PUT', '/me/preferences', { body: { distance_unit: 'mi' } })).status).toBe(401);
    expect((await runtime.request('GET', '/me/notification-preferences')).status).toBe(401);
  });

  it('answers the defaults before anything is saved', async () => {
    expect((await as(alice)('GET', '/me/preferences')).body.data).toEqual({
      distance_unit: 'km',
      default_charity_id: null,
      remember_charity: false,
    });
    expect((await as(alice)('GET', '/me/notification-preferences')).body.data).toEqual({
      upcoming_goal_enabled: true,
      midweek_update_enabled: true,
      ending_soon_enabled: true,
      upcoming_goal_time: '18:00:00',
      midweek_update_time: '18:00:00',
      ending_soon_time: '09:00:00',
    });
  });

  it('saves the unit, stores anything else as km, and keeps users apart', async () => {
    expect((await as(alice)('PUT', '/me/preferences', { distance_unit: 'mi' })).body.data.distance_unit).toBe('mi');
    expect((await as(alice)('GET', '/me/preferences')).body.data.distance_unit).toBe('mi');
    expect((await as(bob)('GET', '/me/preferences')).body.data.distance_unit).toBe('km');
    expect((await as(alice)('PUT', '/me/preferences', { distance_unit: 'furlongs' })).body.data.distance_unit).toBe(
      'km',
    );
  });

  it('keeps untouched fields, refuses bad values with a message', async () => {
    await as(alice)('PUT', '/me/preferences', { distance_unit: 'mi' });
    const res = await as(alice)('PUT', '/me/preferences', { remember_charity: true });
    expect(res.body.data).toEqual({ distance_unit: 'mi', default_charity_id: null, remember_charity: true });
    const bad = await as(alice)('PUT', '/me/preferences', { remember_charity: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('remember_charity must be true or false');
    const unknown = await as(alice)('PUT', '/me/preferences', { default_charity_id: 'no-such-charity' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Unknown charity');
    const notJson = await runtime.request('PUT', '/me/preferences', { token: alice.token, body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('saves switches and times with seconds; refuses a malformed time', async () => {
    const res = await as(alice)('PUT', '/me/notification-preferences', {
      midweek_update_enabled: false,
      ending_soon_time: '08:30',
    });
    expect(res.body.data).toMatchObject({
      midweek_update_enabled: false,
      ending_soon_time: '08:30:00',
      upcoming_goal_time: '18:00:00',
    });
    expect((await as(alice)('GET', '/me/notification-preferences')).body.data.ending_soon_time).toBe('08:30:00');
    const bad = await as(alice)('PUT', '/me/notification-preferences', { upcoming_goal_time: '25:00:00' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Time must be in HH:MM:SS format');
    const flag = await as(alice)('PUT', '/me/notification-preferences', { ending_soon_enabled: 1 });
    expect(flag.status).toBe(400);
    expect(flag.body.error).toBe('ending_soon_enabled must be true or false');
  });
});
