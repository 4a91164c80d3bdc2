import { beforeEach, describe, expect, it, vi } from 'vitest';

// Capacitor's answers and the three plugins, as the factory sees them; each test sets where it "runs".
const fake = vi.hoisted(() => ({
  native: false,
  platform: 'web',
  prefs: new Map<string, string>(),
  calls: [] as string[],
}));

vi.mock('@capacitor/core', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@capacitor/core')>();
  return {
    ...actual,
    Capacitor: { ...actual.Capacitor, isNativePlatform: () => fake.native, getPlatform: () => fake.platform },
  };
});
vi.mock('@capacitor/geolocation', () => ({
  Geolocation: {
    checkPermissions: async () => {
      fake.calls.push('geolocation.checkPermissions');
      return { location: 'granted', coarseLocation: 'granted' };
    },
    requestPermissions: async () => ({ location: 'granted', coarseLocation: 'granted' }),
    watchPosition: async () => 'watch-1',
    clearWatch: async () => {},
  },
}));
vi.mock('@capacitor/push-notifications', () => ({
  PushNotifications: {
    checkPermissions: async () => {
      fake.calls.push('push.checkPermissions');
      return { receive: 'granted' };
    },
    requestPermissions: async () => ({ receive: 'granted' }),
    register: async () => {},
    addListener: async () => ({ remove: async () => {} }),
  },
}));
vi.mock('@capacitor/preferences', () => ({
  Preferences: {
    keys: async () => ({ keys: [...fake.prefs.keys()] }),
    get: async ({ key }: { key: string }) => ({ value: fake.prefs.get(key) ?? null }),
    set: async ({ key, value }: { key: string; value: string }) => void fake.prefs.set(key, value),
    remove: async ({ key }: { key: string }) => void fake.prefs.delete(key),
  },
}));

/** Fresh copies of the web app's platform modules and of the shell's provider, under the current fake. */
async function load() {
  vi.resetModules();
  const index = await import('../../web/src/lib/platform/index.ts');
  await import('./provide-platform.ts');
  const storage = await import('../../web/src/lib/storage.ts');
  const geolocation = await import('../../web/src/lib/geolocation.ts');
  const callback = await import('../../web/src/lib/platform/auth-callback-url.ts');
  return { ...index, ...storage, ...callback, geolocation: geolocation.geolocation };
}

beforeEach(() => {
  fake.native = false;
  fake.platform = 'web';
  fake.prefs.clear();
  fake.calls.length = 0;
});

describe('the native shell provides its platform to the web app', () => {
  it('picks the native implementations when Capacitor.isNativePlatform() is true', async () => {
    fake.native = true;
    fake.platform = 'android';
    const { platform, NATIVE_AUTH_CALLBACK } = await load();
    const p = platform();
    expect(p.name).toBe('android');
    expect(await p.push.checkPermission()).toBe('granted');
    expect(await p.geolocation.requestPermission()).toBe('granted');
    expect(fake.calls).toEqual(['push.checkPermissions', 'geolocation.checkPermissions']);
    expect(p.shell).toMatchObject({ hasLanding: false, signedOutRoute: '/login', permissionsOnboarding: true });
    expect(p.shell.authRedirectUrl()).toBe(NATIVE_AUTH_CALLBACK);
    expect(NATIVE_AUTH_CALLBACK).toBe('stridestake://auth/callback');
    expect(p.shell.connectionReturn).toBe('native');
  });

  it('leaves the web implementations when Capacitor says it is not native', async () => {
    const { platform } = await load();
    expect(platform().name).toBe('web');
    expect(fake.calls).toEqual([]);
  });

  it('falls back to the web when native is claimed for an unknown platform', async () => {
    const { nativePlatformFor } = await import('./platform.ts');
    expect(nativePlatformFor({ isNative: true, platform: 'electron' })).toBeNull();
    expect(nativePlatformFor({ isNative: true, platform: 'ios' })?.name).toBe('ios');
  });

  it('installs Preferences-backed storage and native GPS before the app renders on native', async () => {
    fake.native = true;
    fake.platform = 'ios';
    fake.prefs.set('stridestake.auth', '{"access_token":"t"}');
    const { installPlatform, platform, storage, geolocation } = await load();
    await installPlatform();
    // What the auth client will read at import time is the session stored in Preferences.
    expect(storage.getItem('stridestake.auth')).toBe('{"access_token":"t"}');
    storage.setItem('stridestake.distance-unit', 'mi');
    await vi.waitFor(() => expect(fake.prefs.get('stridestake.distance-unit')).toBe('mi'));
    storage.removeItem('stridestake.auth');
    await vi.waitFor(() => expect(fake.prefs.has('stridestake.auth')).toBe(false));
    expect(geolocation()).toBe(platform().geolocation);
  });
});
