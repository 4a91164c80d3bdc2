import { describe, expect, it, vi } from 'vitest';
import { type PreferencesPluginLike, preferencesStorage } from './storage.ts';

function fakePreferences(initial: Record<string, string>) {
  const map = new Map(Object.entries(initial));
  const plugin = {
    keys: async () => ({ keys: [...map.keys()] }),
    get: async ({ key }: { key: string }) => ({ value: map.get(key) ?? null }),
    set: async ({ key, value }: { key: string; value: string }) => void map.set(key, value),
    remove: async ({ key }: { key: string }) => void map.delete(key),
  };
  return { plugin: plugin as unknown as PreferencesPluginLike, map };
}

describe('Preferences-backed storage', () => {
  it('loads every stored value before use, then reads synchronously', async () => {
    const fake = fakePreferences({ 'stridestake.auth': '{"s":1}', 'stridestake.distance-unit': 'mi' });
    const storage = await preferencesStorage(fake.plugin);
    expect(storage.getItem('stridestake.auth')).toBe('{"s":1}');
    expect(storage.getItem('stridestake.distance-unit')).toBe('mi');
    expect(storage.getItem('missing')).toBeNull();
  });

  it('writes through to Preferences, visible at once in memory', async () => {
    const fake = fakePreferences({ a: '1' });
    const storage = await preferencesStorage(fake.plugin);
    storage.setItem('b', '2');
    storage.removeItem('a');
    expect(storage.getItem('b')).toBe('2');
    expect(storage.getItem('a')).toBeNull();
    await vi.waitFor(() => expect(Object.fromEntries(fake.map)).toEqual({ b: '2' }));
    // A later launch sees what this one wrote.
    expect((await preferencesStorage(fake.plugin)).getItem('b')).toBe('2');
  });
});
