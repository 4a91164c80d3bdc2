import { STORAGE_KEYS, storage } from './storage.ts';

/**
 * Whether demo mode is on (§1, §6): a local flag, switched by lib/demo-mode.ts. Apart from it, without React, for
 * app.html's inline script (lib/first-requests.ts).
 */
export function isDemoMode(): boolean {
  return storage.getItem(STORAGE_KEYS.demoMode) === 'true';
}
