import { Preferences, type PreferencesPlugin } from '@capacitor/preferences';
import type { KeyValueStorage } from '../../web/src/lib/storage.ts';

/** The plugin calls this implementation makes (a test passes a fake). */
export type PreferencesPluginLike = Pick<PreferencesPlugin, 'keys' | 'get' | 'set' | 'remove'>;

/**
 * The web app's key-value storage on Capacitor Preferences (UserDefaults on iOS, SharedPreferences on Android),
 * which the OS does not purge the way it may purge a WebView's local storage. The app reads storage synchronously,
 * so every stored value is loaded into memory once, before the app renders; writes update memory at once and go
 * to Preferences in the background (the plugin runs calls in order).
 */
export async function preferencesStorage(plugin: PreferencesPluginLike = Preferences): Promise<KeyValueStorage> {
  const values = new Map<string, string>();
  const { keys } = await plugin.keys();
  const entries = await Promise.all(keys.map(async (key) => [key, (await plugin.get({ key })).value] as const));
  for (const [key, value] of entries) if (value !== null) values.set(key, value);

  const report = (error: unknown) => console.error('Preferences write failed', error);
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem(key, value) {
      values.set(key, value);
      plugin.set({ key, value }).catch(report);
    },
    removeItem(key) {
      values.delete(key);
      plugin.remove({ key }).catch(report);
    },
  };
}
