import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage, PushOutcome, PushSender } from '../../app-server/adapters/push/push-sender.ts';
import { deliverNotification } from '../../app-server/commands/notifications/deliver.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';

describe.each(databaseTargets())('notifications API on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const tokensOf = async (userId: string) =>
    (
      await sql<{ token: string }>`SELECT token FROM push_tokens WHERE user_id = ${userId} ORDER BY token`.execute(
        runtime.database.db,
      )
    ).rows.map((r) => r.token);

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    alice = await createTestUser(runtime, 'alice');
    bob = await createTestUser(runtime, 'bob');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('requires sign-in', async () => {
    expect((await runtime.request('GET', '/notifications/history')).status).toBe(401);
  });

  it('has no Web Push key to give without VAPID keys configured: notifications stay in-app', async () => {
    const res = await as(alice)('GET', '/notifications/web-push-key');
    expect(res.body).toEqual({ success: true, data: { public_key: null } });
  });

  it.each([
    [{ platform: 'ios' }, 'A push token is required'],
    [{ token: '  ', platform: 'ios' }, 'A push token is required'],
    [{ token: 'tok', platform: 'symbian' }, 'Platform must be ios, android or web'],
  ])('refuses to register %j', async (body, message) => {
    const res = await as(alice)('POST', '/notifications/register', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('registers and unregisters tokens; another account cannot take a token until its owner unregisters it', async () => {
    for (const token of ['a-ios', 'a-web', 'dead'])
      expect((await as(alice)('POST', '/notifications/register', { token, platform: 'ios' })).status).toBe(201);
    expect((await as(bob)('POST', '/notifications/register', { token: 'shared', platform: 'android' })).status).toBe(
      201,
    );
    // Registering again (a retry, the same user signing in again) refreshes it.
    expect((await as(bob)('POST', '/notifications/register', { token: 'shared', platform: 'android' })).status).toBe(
      201,
    );
    const taken = await as(alice)('POST', '/notifications/register', { token: 'shared', platform: 'web' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(
      'This device receives notifications for another account. Sign out of that account on this device first.',
    );
    expect(await tokensOf(bob.id)).toEqual(['shared']);
    expect((await as(alice)('DELETE', '/notifications/unregister', { token: 'shared' })).body.data.removed).toBe(0);
    expect((await as(bob)('DELETE', '/notifications/unregister', { token: 'a-ios' })).body.data.removed).toBe(0);
    // Bob signs out on that device (the web app unregisters its token): now Alice can register it.
    expect((await as(bob)('DELETE', '/notifications/unregister', { token: 'shared' })).body.data.removed).toBe(1);
    expect((await as(alice)('POST', '/notifications/register', { token: 'shared', platform: 'web' })).status).toBe(201);
    expect(await tokensOf(bob.id)).toEqual([]);
    expect((await as(alice)('DELETE', '/notifications/unregister', { token: 'shared' })).body.data.removed).toBe(1);
    expect(await tokensOf(alice.id)).toEqual(['a-ios', 'a-web', 'dead']);
  });

  it.each([
    [{ message: 'm', type: 'ending_soon' }, 'Title is required'],
    [{ title: 't', type: 'ending_soon' }, 'Message is required'],
    [{ title: 't', message: 'm', type: 'spam' }, 'Type must be upcoming_goal, midweek_update or ending_soon'],
  ])('refuses a test notification %j', async (body, message) => {
    const res = await as(alice)('POST', '/notifications/test', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('sends a test notification in-app, visible to its owner only, and polls by delivered_at', async () => {
    const res = await as(alice)('POST', '/notifications/test', {
      title: 'Hello',
      message: 'World',
      type: 'midweek_update',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      user_id: alice.id,
      delivered_at: '2026-11-18T12:00:00.000Z',
      payload: { title: 'Hello', message: 'World', type: 'midweek_update', url: '/profile?tab=stakes' },
      push_status: 'in_app',
    });
    expect((await as(alice)('GET', '/notifications?after=2026-11-18T11:59:59Z')).body.data).toHaveLength(1);
    expect((await as(alice)('GET', '/notifications?after=2026-11-18T12:00:00Z')).body.data).toHaveLength(0);
    expect((await as(bob)('GET', '/notifications/history')).body.data).toEqual([]);
    const bad = await as(alice)('GET', '/notifications?after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('after must be an ISO date-time');
    expect((await as(alice)('GET', '/notifications/history?limit=0')).status).toBe(400);
  });

  it('pushes to every device once, and forgets a token FCM reports dead', async () => {
    const sent: PushMessage[] = [];
    const fcm: PushSender = {
      kind: 'fcm',
      async send(messages): Promise<PushOutcome[]> {
        sent.push(...messages);
        return messages.map((m) => (m.token === 'dead' ? 'invalid_token' : 'sent'));
      },
    };
    const n = {
      id: 'ending_soon:x',
      userId: alice.id,
      type: 'ending_soon' as const,
      title: 'T',
      message: 'M',
      data: { url: '/goals' },
    };
    expect(await deliverNotification(runtime.database.db, fcm, n, runtime.clock.now())).toBe(true);
    expect(await deliverNotification(runtime.database.db, fcm, n, runtime.clock.now())).toBe(false);
    expect(sent.map((m) => m.token)).toEqual(['a-ios', 'a-web', 'dead']);
    expect(sent[0]?.data).toEqual({ url: '/goals', type: 'ending_soon', notificationId: 'ending_soon:x' });
    expect(await tokensOf(alice.id)).toEqual(['a-ios', 'a-web']);
    const row = (await as(alice)('GET', '/notifications/history')).body.data.find(
      (r: { id: string }) => r.id === 'ending_soon:x',
    );
    expect(row.push_status).toBe('sent');
  });
});
