import { afterEach, describe, expect, it, vi } from 'vitest';
import { capacitorPush, type PushPluginLike, REGISTRATION_TIMEOUT_MS } from './push.ts';

type Listener = (payload: unknown) => void;

/** A fake @capacitor/push-notifications: records listeners so a test can fire the plugin's events. */
function fakePlugin(receive = 'granted') {
  const listeners = new Map<string, Set<Listener>>();
  const fire = (event: string, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  let onRegister: () => void = () => {};
  const plugin = {
    checkPermissions: async () => ({ receive }),
    requestPermissions: async () => ({ receive: 'granted' }),
    register: async () => onRegister(),
    addListener: async (event: string, listener: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
      return { remove: async () => void listeners.get(event)?.delete(listener) };
    },
  };
  return {
    plugin: plugin as unknown as PushPluginLike,
    fire,
    count: (event: string) => listeners.get(event)?.size ?? 0,
    onRegister: (f: () => void) => {
      onRegister = f;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('native push (@capacitor/push-notifications)', () => {
  it('maps the receive permission', async () => {
    expect(await capacitorPush('ios', fakePlugin('granted').plugin).checkPermission()).toBe('granted');
    expect(await capacitorPush('ios', fakePlugin('denied').plugin).checkPermission()).toBe('denied');
    expect(await capacitorPush('ios', fakePlugin('prompt-with-rationale').plugin).checkPermission()).toBe('prompt');
  });

  it('resolves the token the registration event carries, with the platform, and removes its listeners', async () => {
    const fake = fakePlugin();
    fake.onRegister(() => setTimeout(() => fake.fire('registration', { value: 'apns-token' }), 0));
    const registration = await capacitorPush('ios', fake.plugin).register();
    expect(registration).toEqual({ token: 'apns-token', platform: 'ios' });
    await vi.waitFor(() => expect(fake.count('registration') + fake.count('registrationError')).toBe(0));
  });

  it('rejects on a registration error', async () => {
    const fake = fakePlugin();
    fake.onRegister(() => setTimeout(() => fake.fire('registrationError', { error: 'no Play Services' }), 0));
    await expect(capacitorPush('android', fake.plugin).register()).rejects.toThrow('no Play Services');
  });

  it('rejects when no token arrives in time', async () => {
    vi.useFakeTimers();
    const fake = fakePlugin();
    const pending = capacitorPush('android', fake.plugin).register();
    const assertion = expect(pending).rejects.toThrow(/timed out/);
    await vi.advanceTimersByTimeAsync(REGISTRATION_TIMEOUT_MS);
    await assertion;
  });

  it('hands a tapped notification its data as strings, until unsubscribed', async () => {
    const fake = fakePlugin();
    const taps: unknown[] = [];
    const stop = capacitorPush('android', fake.plugin).onNotificationTap((data) => taps.push(data));
    await vi.waitFor(() => expect(fake.count('pushNotificationActionPerformed')).toBe(1));
    fake.fire('pushNotificationActionPerformed', {
      actionId: 'tap',
      notification: { id: '1', data: { type: 'ending_soon', groupId: 'g1', badge: 3, nested: { x: 1 } } },
    });
    expect(taps).toEqual([{ type: 'ending_soon', groupId: 'g1', badge: '3' }]);
    stop();
    await vi.waitFor(() => expect(fake.count('pushNotificationActionPerformed')).toBe(0));
  });
});
