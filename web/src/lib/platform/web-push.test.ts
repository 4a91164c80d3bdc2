import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { vapidKeyBytes, webPushMessaging } from './web-push.ts';

describe('web push messaging', () => {
  it('turns a base64url VAPID public key into the 65 bytes of its P-256 point', () => {
    const { publicKey } = webpush.generateVAPIDKeys();
    const bytes = vapidKeyBytes(publicKey);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4); // uncompressed point
    expect(Buffer.from(bytes).toString('base64url')).toBe(publicKey);
  });

  it('is unsupported where the browser has no service worker, without asking the server', async () => {
    let asked = 0;
    const push = webPushMessaging(async () => {
      asked++;
      return webpush.generateVAPIDKeys().publicKey;
    });
    expect(await push.checkPermission()).toBe('unsupported');
    expect(await push.requestPermission()).toBe('unsupported');
    await expect(push.register()).rejects.toThrow(/not available on the web/);
    expect(asked).toBe(0);
    expect(typeof push.onNotificationTap(() => {})).toBe('function');
  });
});
