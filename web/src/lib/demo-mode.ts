import { useSyncExternalStore } from 'react';
import { queryClient } from './query-client.ts';
import { STORAGE_KEYS, storage } from './storage.ts';

// Demo mode (§1, §6) is a local flag: the API client answers from sample data and no sign-in is needed.
const listeners = new Set<() => void>();

/** Whether demo mode is on. */
export function isDemoMode(): boolean {
  return storage.getItem(STORAGE_KEYS.demoMode) === 'true';
}

/** Turns demo mode on or off and tells every subscriber (the auth guard and the query cache react to it). */
export function setDemoMode(on: boolean): void {
  const wasOn = isDemoMode();
  if (on) storage.setItem(STORAGE_KEYS.demoMode, 'true');
  else {
    storage.removeItem(STORAGE_KEYS.demoMode);
    storage.removeItem(STORAGE_KEYS.demoData);
  }
  // Sample answers and real ones must never mix in the cache.
  if (on !== wasOn) queryClient.clear();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The demo flag as React state. */
export function useDemoMode(): boolean {
  return useSyncExternalStore(subscribe, isDemoMode, () => false);
}
