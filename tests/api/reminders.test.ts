import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inAppOnlyPushSender } from '../../app-server/adapters/push/push-sender.ts';
import { createRemindersProcess } from '../../app-server/process/reminders/reminders-process.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, type TestUser } from '../support/users.ts';

// The week of Monday 2026-03-23: Europe/London moves to BST on Sunday 29 March at 01:00 UTC (a DST week), Tokyo
// has no DST. Hourly ticks from Monday to the next Monday.
describe.each(databaseTargets())('goal reminders across a DST week in two zones on %s', (target) => {
  let runtime: TestRuntime;
  let london: TestUser;
  let tokyo: TestUser;
  let groupId: string;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const history = async (user: TestUser) => {
    const res = await as(await freshToken(runtime, user))('GET', '/notifications/history?limit=100');
    return res.body.data
      .map((n: { type: string; delivered_at: string; payload: Record<string, string> }) => [
        n.delivered_at,
        n.type,
        n.payload.url,
      ])
      .sort();
  };

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-03-23T00:30:00Z' });
    london = await createTestUser(runtime, 'london', 'Europe/London');
    tokyo = await createTestUser(runtime, 'tokyo', 'Asia/Tokyo');
    for (const user of [london, tokyo]) {
      expect((await as(user)('POST', '/goals', { type: 'distance', target_value: 20 })).status).toBe(201);
      expect((await as(user)('POST', '/goals', { type: 'count', target_value: 3, start: 'next_week' })).status).toBe(
        201,
      );
    }
    groupId = (await as(london)('POST', '/groups', { name: 'Thames Striders' })).body.data.id;
    await as(tokyo)('PUT', '/me/notification-preferences', {
      midweek_update_enabled: false,
      ending_soon_time: '20:00:00',
    });
  }, 60_000);
  afterAll(() => runtime?.close());

  it('lists the week’s scheduled reminders in the user’s zone', async () => {
    const res = await as(london)('GET', '/notifications/scheduled');
    expect(res.body.data.map((s: { type: string; scheduled_for: string }) => [s.type, s.scheduled_for])).toEqual([
      ['midweek_update', '2026-03-25T18:00:00.000Z'],
      ['ending_soon', '2026-03-29T08:00:00.000Z'],
      ['upcoming_goal', '2026-03-29T17:00:00.000Z'],
    ]);
    const t = await as(tokyo)('GET', '/notifications/scheduled');
    expect(t.body.data.map((s: { type: string; scheduled_for: string }) => [s.type, s.scheduled_for])).toEqual([
      ['upcoming_goal', '2026-03-29T09:00:00.000Z'],
      ['ending_soon', '2026-03-29T11:00:00.000Z'],
    ]);
  });

  it('sends exactly the expected reminders, once each, respecting the switches', async () => {
    const start = Date.parse('2026-03-23T01:00:00Z');
    for (let hour = 0; hour <= 167; hour++) {
      runtime.clock.set(new Date(start + hour * 3_600_000));
      await runtime.processes.tick();
      if (hour % 24 === 0) await runtime.processes.tick(); // a repeated tick changes nothing
    }
    expect(await history(london)).toEqual([
      ['2026-03-25T18:00:00.000Z', 'midweek_update', '/profile?tab=stakes'],
      ['2026-03-29T08:00:00.000Z', 'ending_soon', `/groups/${groupId}`],
      ['2026-03-29T17:00:00.000Z', 'upcoming_goal', '/goals'],
    ]);
    expect(await history(tokyo)).toEqual([
      ['2026-03-29T09:00:00.000Z', 'upcoming_goal', '/goals'],
      ['2026-03-29T11:00:00.000Z', 'ending_soon', '/goals'],
    ]);
  }, 300_000);

  it('sends nothing again after a restart at a moment when reminders were due', async () => {
    const restarted = createRemindersProcess({ push: inAppOnlyPushSender });
    for (const at of ['2026-03-25T18:30:00Z', '2026-03-29T11:30:00Z']) {
      runtime.clock.set(at);
      await restarted.tick?.({ db: runtime.database.db, store: runtime.store, now: runtime.clock.now() });
    }
    expect(await history(london)).toHaveLength(3);
    expect(await history(tokyo)).toHaveLength(2);
  });
});
