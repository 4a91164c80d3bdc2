/**
 * Small key-value storage the web app owns as an interface, so the native shell can swap in Capacitor
 * Preferences while pages keep calling the same functions (§9: demo flag, unit, GPS state, onboarding flags).
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Browser local storage, or an in-memory map where it is unavailable (private mode, tests). */
function browserStorage(): KeyValueStorage {
  try {
    const probe = '__stridestake_probe__';
    window.localStorage.setItem(probe, '1');
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    const map = new Map<string, string>();
    return {
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    };
  }
}

export const storage: KeyValueStorage = browserStorage();

/** Local storage keys used across the app, in one place so none collide. */
export const STORAGE_KEYS = {
  demoMode: 'stridestake.demo-mode',
  demoData: 'stridestake.demo-data',
  distanceUnit: 'stridestake.distance-unit',
  gpsTracking: 'stridestake.gps-tracking',
  tourSeen: 'stridestake.tour-seen',
  celebratedGoals: 'stridestake.celebrated-goals',
  session: 'stridestake.auth',
} as const;

/** Reads a JSON value, or the fallback when absent or unreadable. */
export function readJson<T>(key: string, fallback: T): T {
  const raw = storage.getItem(key);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

/** Writes a JSON value. */
export function writeJson(key: string, value: unknown): void {
  storage.setItem(key, JSON.stringify(value));
}
