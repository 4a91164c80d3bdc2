import { useSyncExternalStore } from 'react';
import { isDemoMode } from './demo-flag.ts';
import { STORAGE_KEYS, storage } from './storage.ts';

export { isDemoMode };

// Demo mode (§1, §6) is a local flag: the API client answers from sample data and no sign-in is needed.
const listeners = new Set<() => void>();
/** Told when the mode actually changes (the query cache clears itself: query-client.ts). */
const switchListeners = new Set<() => void>();

/**
 * Calls `listener` each time demo mode is switched on or off. The query cache subscribes here rather than being
 * imported, so the landing page's "Try the Demo" does not download the query library.
 */
export function onDemoModeSwitch(listener: () => void): () => void {
  switchListeners.add(listener);
  return () => switchListeners.delete(listener);
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
  if (on !== wasOn) for (const listener of switchListeners) listener();
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
