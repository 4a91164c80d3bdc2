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

let backing: KeyValueStorage = browserStorage();

/**
 * The storage in use. It forwards to the installed backing, so modules that captured it at import time (the auth
 * client) follow a swap made before the app renders (lib/platform installs Capacitor Preferences on native).
 */
export const storage: KeyValueStorage = {
  getItem: (key) => backing.getItem(key),
  setItem: (key, value) => backing.setItem(key, value),
  removeItem: (key) => backing.removeItem(key),
};

/** Installs another backing (native shell, tests). */
export function installStorage(next: KeyValueStorage): void {
  backing = next;
}

/** Local storage keys used across the app, in one place so none collide. */
export const STORAGE_KEYS = {
  demoMode: 'stridestake.demo-mode',
  demoData: 'stridestake.demo-data',
  distanceUnit: 'stridestake.distance-unit',
  gpsTracking: 'stridestake.gps-tracking',
  /** Finished runs waiting for the server, where IndexedDB cannot be opened (features/runs/offline). */
  pendingRuns: 'stridestake.pending-runs',
  tourSeen: 'stridestake.tour-seen',
  celebratedGoals: 'stridestake.celebrated-goals',
  celebratedBadges: 'stridestake.celebrated-badges',
  session: 'stridestake.auth',
  pendingPushToken: 'stridestake.pending-push-token',
  registeredPushToken: 'stridestake.registered-push-token',
  permissionsOnboarded: 'stridestake.permissions-onboarded',
  appStorePromptDismissed: 'stridestake.app-store-prompt-dismissed',
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
