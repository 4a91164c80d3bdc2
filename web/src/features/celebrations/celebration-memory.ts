import { currentUserStorage } from '../../lib/storage.ts';

// Ids the signed-in user celebrated on this device (§4: once per goal, and badges also locally). Capped so the list cannot grow forever.
const KEEP = 200;

type MemoryKey = 'celebratedGoals' | 'celebratedBadges';

/** The ids remembered under `key`. */
export function celebrated(key: MemoryKey): ReadonlySet<string> {
  const ids = currentUserStorage().readJson<unknown>(key, []);
  return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
}

/** Remembers `id` under `key`. */
export function rememberCelebrated(key: MemoryKey, id: string): void {
  const ids = [...celebrated(key)].filter((x) => x !== id);
  currentUserStorage().writeJson(key, [...ids, id].slice(-KEEP));
}
