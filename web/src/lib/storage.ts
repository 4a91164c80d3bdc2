/**
 * The one module that touches the device's storage (local storage on the web, Capacitor Preferences on native): a
 * key-value interface the web app owns, so the native shell can swap in Preferences while pages keep calling the
 * same functions. Two kinds of keys: the device's (STORAGE_KEYS) and each user's (USER_KEYS, through userStorage),
 * the latter removed at sign-out. storage-ownership.test.ts fails if any other module uses local or session storage.
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

/**
 * The device's keys: what belongs to this browser or phone, not to whoever is signed in (the session itself, demo
 * mode, the app-store prompt, the push token of the device). Everything of a user goes in USER_KEYS instead.
 */
export const STORAGE_KEYS = {
  demoMode: 'stridestake.demo-mode',
  demoData: 'stridestake.demo-data',
  /**
   * Finished runs waiting for the server, where IndexedDB cannot be opened (features/runs/offline). Each record names
   * its user and is sent only with that user's session; they stay after sign-out, so a run is never lost.
   */
  pendingRuns: 'stridestake.pending-runs',
  session: 'stridestake.auth',
  pendingPushToken: 'stridestake.pending-push-token',
  registeredPushToken: 'stridestake.registered-push-token',
  /** The ids of the users who finished the permissions onboarding here (§2: remembered per user, across sign-ins). */
  permissionsOnboarded: 'stridestake.permissions-onboarded',
  appStorePromptDismissed: 'stridestake.app-store-prompt-dismissed',
  /** The signed-in page a signed-out visitor opened (a vouch link), to land on after signing in (lib/return-path). */
  returnAfterSignIn: 'stridestake.return-after-sign-in',
  /** The users (and 'demo') that have a namespace of USER_KEYS on this device, so sign-out can empty them all. */
  userNamespaces: 'stridestake.user-namespaces',
} as const;

/**
 * What the app keeps for one user, each under `stridestake.user.<user id>.<name>` (userStorage): the runner's data
 * (GPS fixes of the run in progress and of past runs, the distance unit) and flags (tour seen, goals and badges
 * celebrated). All of it is removed when the user signs out, by the button or because the session ended elsewhere
 * (clearUserStorage), so nothing of one runner stays on a shared browser or applies to the next.
 */
export const USER_KEYS = {
  distanceUnit: 'distance-unit',
  gpsTracking: 'gps-tracking',
  runTracks: 'run-tracks',
  tourSeen: 'tour-seen',
  celebratedGoals: 'celebrated-goals',
  celebratedBadges: 'celebrated-badges',
  /**
   * The native shell's health-store import: since when it read and which workouts it sent (native/src/health-import.ts).
   * Gone at sign-out like the rest: the server names each workout's run by its id, so a workout sent again is one run.
   */
  healthImport: 'health-import',
} as const;

export type UserKey = keyof typeof USER_KEYS;

/** One user's storage: only the keys of USER_KEYS, in that user's namespace. */
export interface UserStorage {
  /** The user id, 'demo' for a demo visitor, or null when nobody is signed in (reads nothing, writes nothing). */
  readonly owner: string | null;
  getItem(key: UserKey): string | null;
  setItem(key: UserKey, value: string): void;
  removeItem(key: UserKey): void;
  /** A JSON value, or the fallback when absent or unreadable. */
  readJson<T>(key: UserKey, fallback: T): T;
  writeJson(key: UserKey, value: unknown): void;
}

/** The namespace of a demo visitor (demo mode without a session): emptied like a user's. */
export const DEMO_OWNER = 'demo';

const userKey = (owner: string, key: UserKey) => `stridestake.user.${owner}.${USER_KEYS[key]}`;

function namespaces(): string[] {
  const list = readJson<unknown>(STORAGE_KEYS.userNamespaces, []);
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}

function parseJson<T>(raw: string | null, fallback: T): T {
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

/** `owner`'s storage (a user id, or DEMO_OWNER); a null owner keeps nothing. */
export function userStorage(owner: string | null): UserStorage {
  const getItem = (key: UserKey) => (owner === null ? null : storage.getItem(userKey(owner, key)));
  const setItem = (key: UserKey, value: string) => {
    if (owner === null) return;
    const known = namespaces();
    if (!known.includes(owner)) writeJson(STORAGE_KEYS.userNamespaces, [...known, owner]);
    storage.setItem(userKey(owner, key), value);
  };
  return {
    owner,
    getItem,
    setItem,
    removeItem: (key) => {
      if (owner !== null) storage.removeItem(userKey(owner, key));
    },
    readJson: (key, fallback) => parseJson(getItem(key), fallback),
    writeJson: (key, value) => setItem(key, JSON.stringify(value)),
  };
}

let lastSession: { raw: string | null; userId: string | null } = { raw: null, userId: null };

/** The id of the user whose session is stored (the auth client's), or null; read without loading the client. */
export function signedInUserId(): string | null {
  const raw = storage.getItem(STORAGE_KEYS.session);
  if (raw !== lastSession.raw) {
    const session = parseJson<{ user?: { id?: unknown } } | null>(raw, null);
    const id = session?.user?.id;
    lastSession = { raw, userId: typeof id === 'string' && id !== '' ? id : null };
  }
  return lastSession.userId;
}

/**
 * The storage of whoever uses the app now: the signed-in user's, a demo visitor's, or (signed out) none. Read at
 * each use, so a write after a sign-out never lands in the namespace of the user who left.
 */
export function currentUserStorage(): UserStorage {
  const userId = signedInUserId();
  if (userId !== null) return userStorage(userId);
  return userStorage(storage.getItem(STORAGE_KEYS.demoMode) === 'true' ? DEMO_OWNER : null);
}

/** Keys of USER_KEYS that builds before the per-user namespaces kept for the whole device (later keys have none). */
const LEGACY_KEYS: Readonly<Partial<Record<UserKey, string>>> = {
  distanceUnit: 'stridestake.distance-unit',
  gpsTracking: 'stridestake.gps-tracking',
  runTracks: 'stridestake.run-tracks',
  tourSeen: 'stridestake.tour-seen',
  celebratedGoals: 'stridestake.celebrated-goals',
  celebratedBadges: 'stridestake.celebrated-badges',
};

/**
 * Moves what an earlier build kept for the whole device into the signed-in user's namespace (theirs: they were
 * using it), or drops it when nobody is signed in. Called once the platform's storage is installed.
 */
export function adoptLegacyUserData(): void {
  const userId = signedInUserId();
  for (const [key, legacy] of Object.entries(LEGACY_KEYS) as [UserKey, string][]) {
    const value = storage.getItem(legacy);
    if (value === null) continue;
    if (userId !== null && userStorage(userId).getItem(key) === null) userStorage(userId).setItem(key, value);
    storage.removeItem(legacy);
  }
}

/**
 * Removes every user's data from this device (all namespaces, demo's too), as a sign-out must. The device's keys
 * stay, among them the offline queue: a run not yet sent stays, tied to its user, and goes only with their session.
 */
export function clearUserStorage(): void {
  for (const owner of namespaces())
    for (const key of Object.keys(USER_KEYS) as UserKey[]) userStorage(owner).removeItem(key);
  storage.removeItem(STORAGE_KEYS.userNamespaces);
  for (const legacy of Object.values(LEGACY_KEYS)) storage.removeItem(legacy);
}

/** A key of the device (STORAGE_KEYS). */
export type DeviceKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Reads a JSON value of the device, or the fallback when absent or unreadable. */
export function readJson<T>(key: DeviceKey, fallback: T): T {
  return parseJson(storage.getItem(key), fallback);
}

/** Writes a JSON value of the device. */
export function writeJson(key: DeviceKey, value: unknown): void {
  storage.setItem(key, JSON.stringify(value));
}
