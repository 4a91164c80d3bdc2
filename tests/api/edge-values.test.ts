import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';

// Values at the ends of what a field can be, each of which answered 500 (PostgreSQL has no year 0, and a week from
// 9999-12-27 ends in year 10000) or was accepted and stored as something no run or goal can be.
describe.each(databaseTargets())('edge values at the API on %s', (target) => {
  let rt: TestRuntime;
  let user: TestUser;
  let groupId: string;
  const get = (path: string) => rt.request('GET', path, { token: user.token });

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    user = await createTestUser(rt, 'edgy');
    groupId = (await rt.request('POST', '/groups', { token: user.token, body: { name: 'Edges' } })).body.data.id;
  }, 120_000);
  afterAll(() => rt?.close());

  it.each(['0000-01-03', '0001-01-01', '9999-12-27'])('recap week_start=%s answers 400', async (week) => {
    const res = await get(`/groups/${groupId}/recap?week_start=${week}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('week_start must be a Monday as YYYY-MM-DD');
    expect((await get(`/groups/${groupId}/recap?week_start=2026-11-16`)).status).toBe(200);
  });

  it.each([
    ['/notifications?after=', 'after must be an ISO date-time'],
    ['/runs?since=', 'since must be an ISO date-time'],
  ])('%s with year 0 answers 400', async (path, message) => {
    const res = await get(`${path}${encodeURIComponent('0000-01-01T00:00:00Z')}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('a distance goal that rounds to 0.00 km is refused', async () => {
    const res = await rt.request('POST', '/goals', {
      token: user.token,
      body: { type: 'distance', target_value: 0.004 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Please enter a valid target value greater than 0');
  });

  it('a Strava webhook with an id past 2^53 or a time past 2100 is refused', async () => {
    const event = {
      object_type: 'activity',
      object_id: 31,
      aspect_type: 'create',
      owner_id: 7,
      event_time: 1_700_000_000,
    };
    const good = await rt.request('POST', '/api/integrations/strava/webhook', { body: event });
    expect(good.status).toBe(200);
    for (const bad of [{ object_id: 1e300 }, { owner_id: 2 ** 53 + 2 }, { event_time: 1e15 }]) {
      const res = await rt.request('POST', '/api/integrations/strava/webhook', { body: { ...event, ...bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
  });
});
