import { importJWK, jwtVerify } from 'jose';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPushSender } from '../../app-server/adapters/push/create-push-sender.ts';
import { createPushRouter } from '../../app-server/adapters/push/push-router.ts';
import type { PushMessage, PushSender } from '../../app-server/adapters/push/push-sender.ts';
import { createWebPushSender } from '../../app-server/adapters/push/web-push-sender.ts';
import {
  isKnownPushService,
  isWebPushToken,
  parseWebPushSubscription,
} from '../../app-server/adapters/push/web-push-subscription.ts';
import { ConfigError, loadConfig } from '../../app-server/config.ts';
import { PushServiceStandIn } from '../support/push-service-stand-in.ts';

const message = (token: string, title = 'Ending soon'): PushMessage => ({
  token,
  title,
  body: 'Two days left to hit 20 km.',
  data: { type: 'ending_soon', url: '/goals' },
});

/** The VAPID public key (an uncompressed P-256 point) as a JWK, to check the push service's view of the JWT. */
async function vapidVerifyKey(publicKey: string) {
  const point = Buffer.from(publicKey, 'base64url');
  const x = point.subarray(1, 33).toString('base64url');
  const y = point.subarray(33, 65).toString('base64url');
  return importJWK({ kty: 'EC', crv: 'P-256', x, y }, 'ES256');
}

describe('Web Push sender against a local push service', () => {
  const service = new PushServiceStandIn();
  const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:support@stridestake.app' };
  let sender: PushSender;

  beforeAll(async () => {
    await service.start();
    sender = createWebPushSender(keys, { agent: service.agent });
  });
  afterAll(() => service.stop());

  it('encrypts the title, body and data to the browser and signs a VAPID JWT for the push service', async () => {
    const browser = service.subscribe('/ok/device-1');
    expect(await sender.send([message(JSON.stringify(browser.json))])).toEqual(['sent']);
    const push = service.received.find((r) => r.path === '/ok/device-1')!;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers.ttl).toBe('86400');
    expect(JSON.parse(browser.decrypt(push.body))).toEqual({
      title: 'Ending soon',
      body: 'Two days left to hit 20 km.',
      data: { type: 'ending_soon', url: '/goals' },
    });
    const [, jwt, k] = /^vapid t=([^,]+), k=(.+)$/.exec(String(push.headers.authorization))!;
    expect(k).toBe(keys.publicKey);
    const { payload } = await jwtVerify(jwt!, await vapidVerifyKey(keys.publicKey));
    expect(payload.aud).toBe(service.url);
    expect(payload.sub).toBe('mailto:support@stridestake.app');
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('reports an unsubscribed browser as a dead token, a push service error as a failure, in order', async () => {
    const ok = service.subscribe('/ok/device-2');
    const gone = service.subscribe('/gone/device-3');
    const busy = service.subscribe('/busy/device-4');
    const outcomes = await sender.send([
      message(JSON.stringify(gone.json)),
      message(JSON.stringify(ok.json)),
      message(JSON.stringify(busy.json)),
      message('{"endpoint":"not a subscription"}'),
    ]);
    expect(outcomes).toEqual(['invalid_token', 'sent', 'failed', 'invalid_token']);
  });
});

describe('push routing and configuration', () => {
  const recorder = (name: string, log: string[]): PushSender => ({
    kind: 'fcm',
    async send(messages) {
      log.push(...messages.map((m) => `${name}:${m.title}`));
      return messages.map(() => 'sent');
    },
  });
  const subscription = JSON.stringify({
    endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
    keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
  });

  it('sends subscriptions through Web Push and registration tokens through FCM, keeping message order', async () => {
    const log: string[] = [];
    const router = createPushRouter({ fcm: recorder('fcm', log), webPush: recorder('web', log) });
    const outcomes = await router.send([
      message('ios-token', 'a'),
      message(subscription, 'b'),
      message('android', 'c'),
    ]);
    expect(outcomes).toEqual(['sent', 'sent', 'sent']);
    expect(log.sort()).toEqual(['fcm:a', 'fcm:c', 'web:b']);
  });

  it('fails, without dropping, a token no configured sender can reach', async () => {
    const log: string[] = [];
    const webOnly = createPushRouter({ fcm: null, webPush: recorder('web', log) });
    expect(await webOnly.send([message('ios-token'), message(subscription)])).toEqual(['failed', 'sent']);
  });

  it('tells subscriptions from registration tokens and accepts only browser push services', () => {
    expect(isWebPushToken(subscription)).toBe(true);
    expect(isWebPushToken('fMz3…fcm-registration-token')).toBe(false);
    const parsed = parseWebPushSubscription(subscription)!;
    expect(isKnownPushService(parsed)).toBe(true);
    for (const endpoint of [
      'https://updates.push.services.mozilla.com/wpush/v2/x',
      'https://web.push.apple.com/QO',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
    ]) {
      expect(isKnownPushService({ ...parsed, endpoint })).toBe(true);
    }
    for (const endpoint of [
      'https://127.0.0.1/x',
      'https://evil.example/fcm.googleapis.com',
      'https://fcm.googleapis.com.evil.example/',
    ]) {
      expect(isKnownPushService({ ...parsed, endpoint })).toBe(false);
    }
    expect(parseWebPushSubscription(subscription.replace('https://', 'http://'))).toBeNull();
    expect(parseWebPushSubscription('{"endpoint":"https://fcm.googleapis.com/x"}')).toBeNull();
    expect(parseWebPushSubscription('not json')).toBeNull();
  });

  it('configures Web Push from a VAPID pair, both halves or neither', () => {
    const pair = webpush.generateVAPIDKeys();
    const base = { NODE_ENV: 'test' };
    const config = loadConfig({
      ...base,
      WEB_PUSH_VAPID_PUBLIC_KEY: pair.publicKey,
      WEB_PUSH_VAPID_PRIVATE_KEY: pair.privateKey,
    });
    expect(config.WEB_PUSH_SUBJECT).toBe('mailto:support@stridestake.app');
    expect(createPushSender(config).kind).toBe('routed');
    expect(createPushSender(loadConfig(base)).kind).toBe('in_app');
    expect(() => loadConfig({ ...base, WEB_PUSH_VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ ...base, WEB_PUSH_VAPID_PUBLIC_KEY: 'short', WEB_PUSH_VAPID_PRIVATE_KEY: pair.privateKey }),
    ).toThrow(/WEB_PUSH_VAPID_PUBLIC_KEY: must be a base64url VAPID public key/);
    expect(() => loadConfig({ ...base, WEB_PUSH_SUBJECT: 'support@stridestake.app' })).toThrow(/WEB_PUSH_SUBJECT/);
  });
});
