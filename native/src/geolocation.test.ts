import { describe, expect, it, vi } from 'vitest';
import type { GeoFix } from '../../web/src/lib/geolocation.ts';
import { capacitorGeolocation, type GeolocationPluginLike, NATIVE_GPS_OPTIONS } from './geolocation.ts';

type Callback = (position: unknown, error?: unknown) => void;

function fakePlugin(permission: { check: string; request?: string; throws?: unknown }) {
  const watches = new Map<string, Callback>();
  const cleared: string[] = [];
  const options: unknown[] = [];
  let resolveId: (id: string) => void = () => {};
  const plugin = {
    checkPermissions: async () => {
      if (permission.throws) throw permission.throws;
      return { location: permission.check, coarseLocation: permission.check };
    },
    requestPermissions: async () => ({ location: permission.request ?? 'denied', coarseLocation: 'denied' }),
    watchPosition: (opts: unknown, callback: Callback) => {
      options.push(opts);
      return new Promise<string>((resolve) => {
        resolveId = (id) => {
          watches.set(id, callback);
          resolve(id);
        };
      });
    },
    clearWatch: async ({ id }: { id: string }) => {
      cleared.push(id);
      watches.delete(id);
    },
  };
  return {
    plugin: plugin as unknown as GeolocationPluginLike,
    watches,
    cleared,
    options,
    giveId: (id: string) => resolveId(id),
  };
}

const position = { timestamp: 1_700_000_000_000, coords: { latitude: 51.5, longitude: -0.12, accuracy: 8 } };

describe('native GPS (@capacitor/geolocation)', () => {
  it('asks for permission only when not yet decided', async () => {
    expect(await capacitorGeolocation(fakePlugin({ check: 'granted' }).plugin).requestPermission()).toBe('granted');
    expect(await capacitorGeolocation(fakePlugin({ check: 'denied' }).plugin).requestPermission()).toBe('denied');
    const prompt = fakePlugin({ check: 'prompt', request: 'granted' });
    expect(await capacitorGeolocation(prompt.plugin).requestPermission()).toBe('granted');
    const refused = fakePlugin({ check: 'prompt', request: 'denied' });
    expect(await capacitorGeolocation(refused.plugin).requestPermission()).toBe('denied');
  });

  it('turns the plugin errors into the tracker failures', async () => {
    const off = fakePlugin({
      check: 'x',
      throws: { code: 'OS-PLUG-GLOC-0007', message: 'Location services are not enabled.' },
    });
    expect(await capacitorGeolocation(off.plugin).requestPermission()).toBe('unavailable');
    const restricted = fakePlugin({ check: 'x', throws: { code: 'OS-PLUG-GLOC-0008' } });
    expect(await capacitorGeolocation(restricted.plugin).requestPermission()).toBe('denied');
  });

  it('watches with high accuracy, no cache and a 10 s timeout (§9), and reports fixes and errors', async () => {
    const fake = fakePlugin({ check: 'granted' });
    const fixes: GeoFix[] = [];
    const errors: string[] = [];
    const stop = capacitorGeolocation(fake.plugin).watch(
      (f) => fixes.push(f),
      (e) => errors.push(e),
    );
    expect(fake.options).toEqual([{ enableHighAccuracy: true, maximumAge: 0, timeout: 10_000 }]);
    expect(NATIVE_GPS_OPTIONS.timeout).toBe(10_000);
    fake.giveId('w1');
    await vi.waitFor(() => expect(fake.watches.has('w1')).toBe(true));
    fake.watches.get('w1')?.(position);
    fake.watches.get('w1')?.(null, { code: 'OS-PLUG-GLOC-0010' });
    expect(fixes).toEqual([{ latitude: 51.5, longitude: -0.12, accuracy: 8, timestamp: 1_700_000_000_000 }]);
    expect(errors).toEqual(['unavailable']);
    stop();
    expect(fake.cleared).toEqual(['w1']);
  });

  it('a stop before the watch id arrives still clears the watch, and no fix gets through', async () => {
    const fake = fakePlugin({ check: 'granted' });
    const fixes: GeoFix[] = [];
    const stop = capacitorGeolocation(fake.plugin).watch(
      (f) => fixes.push(f),
      () => {},
    );
    stop();
    fake.giveId('w2');
    await vi.waitFor(() => expect(fake.cleared).toEqual(['w2']));
    expect(fixes).toEqual([]);
  });
});
