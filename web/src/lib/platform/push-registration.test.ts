import { describe, expect, it } from 'vitest';
import { type KeyValueStorage, STORAGE_KEYS } from '../storage.ts';
import type { PushMessaging, PushPermission, PushRegistration } from './push.ts';
import { webPushMessaging } from './web-push.ts';
import { pendingPushToken, releasePushToken, syncPushToken } from './push-registration.ts';

function memoryStorage(): KeyValueStorage & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

/** A device whose permission and next token the test sets; `token: null` makes registration fail. */
function device(permission: PushPermission, token: string | null): PushMessaging & { registrations: number } {
  const d = {
    registrations: 0,
    checkPermission: async () => permission,
    requestPermission: async () => permission,
    register: async (): Promise<PushRegistration> => {
      d.registrations += 1;
      if (token === null) throw new Error('FCM unreachable');
      return { token, platform: 'android' };
    },
    onNotificationTap: () => () => {},
  };
  return d;
}

/** The API's POST /notifications/register, up or down. */
function api(up: boolean) {
  const sent: PushRegistration[] = [];
  return {
    sent,
    setUp(next: boolean) {
      up = next;
    },
    send: async (r: PushRegistration) => {
      if (!up) throw new Error('Request failed');
      sent.push(r);
    },
  };
}

describe('push token registration on sign-in (§4 Push token)', () => {
  it('registers the device token with the API', async () => {
    const storage = memoryStorage();
    const server = api(true);
    const outcome = await syncPushToken({ push: device('granted', 'tok-1'), storage, send: server.send });
    expect(outcome).toBe('registered');
    expect(server.sent).toEqual([{ token: 'tok-1', platform: 'android' }]);
    expect(storage.map.has(STORAGE_KEYS.pendingPushToken)).toBe(false);
  });

  it('keeps a token the API could not save as pending, and saves it on the next sign-in', async () => {
    const storage = memoryStorage();
    const server = api(false);
    expect(await syncPushToken({ push: device('granted', 'tok-1'), storage, send: server.send })).toBe('pending');
    expect(pendingPushToken(storage)).toEqual({ token: 'tok-1', platform: 'android' });
    expect(server.sent).toEqual([]);

    // Next sign-in: the API is back; this time the platform gives no token, so the pending one is sent.
    server.setUp(true);
    expect(await syncPushToken({ push: device('granted', null), storage, send: server.send })).toBe('registered');
    expect(server.sent).toEqual([{ token: 'tok-1', platform: 'android' }]);
    expect(pendingPushToken(storage)).toBeNull();
  });

  it('reports a failed registration and a failed token save to the error service; the token stays pending', async () => {
    const storage = memoryStorage();
    const reported: [string, string][] = [];
    const report = (error: unknown, area: string) => reported.push([area, (error as Error).message]);
    expect(await syncPushToken({ push: device('granted', null), storage, send: api(true).send, report })).toBe(
      'no-token',
    );
    expect(reported).toEqual([['push-registration', 'FCM unreachable']]);
    expect(await syncPushToken({ push: device('granted', 'tok-2'), storage, send: api(false).send, report })).toBe(
      'pending',
    );
    expect(reported).toEqual([
      ['push-registration', 'FCM unreachable'],
      ['push-token-save', 'Request failed'],
    ]);
    expect(pendingPushToken(storage)?.token).toBe('tok-2');
  });

  it('a pending token stays pending while the API keeps failing', async () => {
    const storage = memoryStorage();
    const server = api(false);
    await syncPushToken({ push: device('granted', 'tok-1'), storage, send: server.send });
    expect(await syncPushToken({ push: device('granted', null), storage, send: server.send })).toBe('pending');
    expect(pendingPushToken(storage)?.token).toBe('tok-1');
  });

  it('a fresh token supersedes the pending one', async () => {
    const storage = memoryStorage();
    const server = api(false);
    await syncPushToken({ push: device('granted', 'old'), storage, send: server.send });
    server.setUp(true);
    expect(await syncPushToken({ push: device('granted', 'new'), storage, send: server.send })).toBe('registered');
    expect(server.sent).toEqual([{ token: 'new', platform: 'android' }]);
    expect(pendingPushToken(storage)).toBeNull();
  });

  it('retries a pending token even when push permission was since revoked, without registering again', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.pendingPushToken, JSON.stringify({ token: 'tok-1', platform: 'ios' }));
    const server = api(true);
    const push = device('denied', 'unused');
    expect(await syncPushToken({ push, storage, send: server.send })).toBe('registered');
    expect(push.registrations).toBe(0);
    expect(server.sent).toEqual([{ token: 'tok-1', platform: 'ios' }]);
  });

  it('does nothing without permission or a pending token, and never asks the user', async () => {
    const storage = memoryStorage();
    const server = api(true);
    const push = { ...device('prompt', 'tok'), requestPermission: async (): Promise<PushPermission> => 'granted' };
    expect(await syncPushToken({ push, storage, send: server.send })).toBe('prompt');
    expect(await syncPushToken({ push: device('denied', 'tok'), storage, send: server.send })).toBe('denied');
    expect(server.sent).toEqual([]);
  });

  it('reports a granted device that gave no token', async () => {
    const server = api(true);
    const outcome = await syncPushToken({ push: device('granted', null), storage: memoryStorage(), send: server.send });
    expect(outcome).toBe('no-token');
  });

  it('does nothing on the web without a service worker or a Web Push key', async () => {
    const storage = memoryStorage();
    const server = api(true);
    const withoutKey = webPushMessaging(async () => null);
    expect(await syncPushToken({ push: withoutKey, storage, send: server.send })).toBe('unsupported');
    expect(server.sent).toEqual([]);
    expect(storage.map.size).toBe(0);
  });

  it('ignores a pending slot it cannot read', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.pendingPushToken, '{not json');
    expect(pendingPushToken(storage)).toBeNull();
    storage.setItem(STORAGE_KEYS.pendingPushToken, JSON.stringify({ token: '', platform: 'android' }));
    expect(pendingPushToken(storage)).toBeNull();
  });
});

describe('push token release on sign-out', () => {
  it('unregisters the token this device registered, once, and forgets it', async () => {
    const storage = memoryStorage();
    const server = api(true);
    await syncPushToken({ push: device('granted', 'tok-1'), storage, send: server.send });
    const unregistered: string[] = [];
    const unregister = async (token: string) => void unregistered.push(token);
    expect(await releasePushToken(storage, unregister)).toBe('released');
    expect(unregistered).toEqual(['tok-1']);
    expect(await releasePushToken(storage, unregister)).toBe('none');
    expect(unregistered).toEqual(['tok-1']);
  });

  it('a failed unregister does not stop the sign-out', async () => {
    const storage = memoryStorage();
    await syncPushToken({ push: device('granted', 'tok-1'), storage, send: api(true).send });
    const outcome = await releasePushToken(storage, async () => {
      throw new Error('Request failed');
    });
    expect(outcome).toBe('failed');
    expect(storage.map.has(STORAGE_KEYS.registeredPushToken)).toBe(false);
  });
});
