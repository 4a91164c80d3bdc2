import { sql } from 'kysely';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPushRouter } from '../../app-server/adapters/push/push-router.ts';
import { createWebPushSender } from '../../app-server/adapters/push/web-push-sender.ts';
import { PushServiceStandIn } from '../support/push-service-stand-in.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';

describe.each(databaseTargets())('Web Push for the web app on %s', (target) => {
  const service = new PushServiceStandIn();
  const keys = webpush.generateVAPIDKeys();
  let runtime: TestRuntime;
  let ada: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const tokensOf = async (userId: string) =>
    (
      await sql<{ token: string }>`SELECT token FROM push_tokens WHERE user_id = ${userId} ORDER BY token`.execute(
        runtime.database.db,
      )
    ).rows.map((r) => r.token);
  /** Registered behind the route's back: the route accepts browser push services only, never a local address. */
  const registerDirectly = async (userId: string, token: string) => {
    const now = runtime.clock.now();
    await sql`INSERT INTO push_tokens (token, user_id, platform, created_at, updated_at)
      VALUES (${token}, ${userId}, 'web', ${now}, ${now})`.execute(runtime.database.db);
  };

  beforeAll(async () => {
    await service.start();
    // The configured sender, except that it trusts the local push service's self-signed certificate.
    const webPush = createWebPushSender({ ...keys, subject: 'mailto:ops@stridestake.app' }, { agent: service.agent });
    runtime = await startTestRuntime(target, {
      now: '2026-11-18T12:00:00Z',
      config: { WEB_PUSH_VAPID_PUBLIC_KEY: keys.publicKey, WEB_PUSH_VAPID_PRIVATE_KEY: keys.privateKey },
      push: createPushRouter({ fcm: null, webPush }),
    });
    ada = await createTestUser(runtime, 'ada');
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
    await service.stop();
  });

  it('gives the signed-in web app the VAPID public key to subscribe with', async () => {
    const res = await as(ada)('GET', '/notifications/web-push-key');
    expect(res.body).toEqual({ success: true, data: { public_key: keys.publicKey } });
    expect((await runtime.request('GET', '/notifications/web-push-key')).status).toBe(401);
  });

  it('registers a browser subscription of a known push service, and refuses any other endpoint', async () => {
    const subscription = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/ada-chrome',
      keys: service.subscribe('/unused').json.keys,
    };
    const token = JSON.stringify(subscription);
    expect((await as(ada)('POST', '/notifications/register', { token, platform: 'web' })).status).toBe(201);
    for (const [body, error] of [
      [{ token, platform: 'ios' }, 'Not a valid web push subscription'],
      [{ token: '{"endpoint":"https://fcm.googleapis.com/x"}', platform: 'web' }, 'Not a valid web push subscription'],
      [
        { token: JSON.stringify({ ...subscription, endpoint: 'https://10.0.0.5/internal' }), platform: 'web' },
        'Unknown web push service',
      ],
      [
        { token: JSON.stringify({ ...subscription, endpoint: 'http://fcm.googleapis.com/x' }), platform: 'web' },
        'Not a valid web push subscription',
      ],
    ] as const) {
      const res = await as(ada)('POST', '/notifications/register', body);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error });
    }
    expect(await tokensOf(ada.id)).toEqual([token]);
    await as(ada)('DELETE', '/notifications/unregister', { token });
  });

  it('delivers a notification to the browser through its push service, and forgets a subscription that is gone', async () => {
    const laptop = service.subscribe('/ok/ada-laptop');
    const oldPhone = service.subscribe('/gone/ada-old-phone');
    await registerDirectly(ada.id, JSON.stringify(laptop.json));
    await registerDirectly(ada.id, JSON.stringify(oldPhone.json));
    const res = await as(ada)('POST', '/notifications/test', {
      title: 'StrideStake test',
      message: 'Notifications are working.',
      type: 'upcoming_goal',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.push_status).toBe('sent');
    const push = service.received.find((r) => r.path === '/ok/ada-laptop')!;
    expect(JSON.parse(laptop.decrypt(push.body))).toMatchObject({
      title: 'StrideStake test',
      body: 'Notifications are working.',
      data: { type: 'upcoming_goal', url: '/goals', notificationId: res.body.data.id },
    });
    expect(service.received.filter((r) => r.path === '/gone/ada-old-phone')).toHaveLength(1);
    expect(await tokensOf(ada.id)).toEqual([JSON.stringify(laptop.json)]);
  });
});
