import { useSyncExternalStore } from 'react';
import { queryClient } from './query-client.ts';
import { clearUserStorage } from './storage.ts';

/** What the sign-in page says when the session ended without this device signing out (item: trust by construction). */
export const SIGNED_OUT_ELSEWHERE = 'You were signed out on another device. Sign in again to continue.';

let notice: string | null = null;
const listeners = new Set<() => void>();

/** Sets (or, with null, clears) the sentence the sign-in pages show about why the runner is signed out. */
export function setSignedOutNotice(next: string | null): void {
  if (notice === next) return;
  notice = next;
  for (const listener of listeners) listener();
}

/** The sentence for the sign-in pages, or null; kept for this page load until the next sign-in. */
export function useSignedOutNotice(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => notice,
    () => null,
  );
}

/**
 * What every end of a session does on this device, whichever way it ended (the Sign Out button, the session ended
 * elsewhere, a refresh the server refused): no answer of the user stays in the query cache, and none of their data
 * in storage (lib/storage.ts; their unsent runs stay, tied to them).
 */
export function forgetSignedOutUser(): void {
  queryClient.clear();
  clearUserStorage();
}
