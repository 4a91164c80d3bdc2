import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import { STORAGE_KEYS, readJson, storage, writeJson } from '../../../lib/storage.ts';
import type { PendingRun } from './pending-run.ts';

/** Where finished runs wait for the server: IndexedDB, or the key-value storage where it cannot be opened. */
export interface RunQueueStore {
  all(): Promise<PendingRun[]>;
  get(id: string): Promise<PendingRun | undefined>;
  put(run: PendingRun): Promise<void>;
  remove(id: string): Promise<void>;
}

interface QueueSchema extends DBSchema {
  'pending-runs': { key: string; value: PendingRun };
}

/** IndexedDB (also in the Capacitor WebView): large tracks fit, and it survives reloads and restarts. */
function indexedDbStore(db: Promise<IDBPDatabase<QueueSchema>>): RunQueueStore {
  return {
    all: async () => (await db).getAll('pending-runs'),
    get: async (id) => (await db).get('pending-runs', id),
    put: async (run) => void (await (await db).put('pending-runs', run)),
    remove: async (id) => (await db).delete('pending-runs', id),
  };
}

/**
 * The app's key-value storage (local storage; Capacitor Preferences on native), for a browser without IndexedDB
 * (some private windows): smaller, but the run is still kept.
 */
export function keyValueStore(): RunQueueStore {
  const read = () => readJson<PendingRun[]>(STORAGE_KEYS.pendingRuns, []);
  return {
    all: async () => read(),
    get: async (id) => read().find((r) => r.id === id),
    put: async (run) => writeJson(STORAGE_KEYS.pendingRuns, [...read().filter((r) => r.id !== run.id), run]),
    remove: async (id) => {
      const rest = read().filter((r) => r.id !== id);
      if (rest.length === 0) storage.removeItem(STORAGE_KEYS.pendingRuns);
      else writeJson(STORAGE_KEYS.pendingRuns, rest);
    },
  };
}

let store: RunQueueStore | null = null;

/** The queue's store, opened on first use. */
export function runQueueStore(): RunQueueStore {
  if (store) return store;
  if (typeof indexedDB === 'undefined') {
    store = keyValueStore();
    return store;
  }
  const db = openDB<QueueSchema>('stridestake-offline', 1, {
    upgrade(database) {
      database.createObjectStore('pending-runs', { keyPath: 'id' });
    },
  });
  const opened = indexedDbStore(db);
  const fallback = keyValueStore();
  // A browser that has IndexedDB but refuses to open it (a private window): the key-value storage instead.
  const use = async <T>(act: (s: RunQueueStore) => Promise<T>) => {
    try {
      await db;
    } catch {
      return act(fallback);
    }
    return act(opened);
  };
  store = {
    all: () => use((s) => s.all()),
    get: (id) => use((s) => s.get(id)),
    put: (run) => use((s) => s.put(run)),
    remove: (id) => use((s) => s.remove(id)),
  };
  return store;
}

/** Installs another store (tests). */
export function installRunQueueStore(next: RunQueueStore): void {
  store = next;
}

const listeners = new Set<() => void>();

/** Calls `listener` after every change of the queue (in this tab). */
export function onRunQueueChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners that the queue changed. */
export function announceRunQueueChange(): void {
  for (const listener of listeners) listener();
}
