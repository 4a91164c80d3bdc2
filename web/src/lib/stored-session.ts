import { STORAGE_KEYS, storage } from './storage.ts';

/**
 * Whether a signed-in session is stored on this device (what the auth client keeps under STORAGE_KEYS.session),
 * read without loading the auth client: the landing page offers "Open App" from it, and stays a small download.
 * The app itself still checks the session (ProtectedLayout) when it opens.
 */
export function hasStoredSession(): boolean {
  const raw = storage.getItem(STORAGE_KEYS.session);
  if (raw === null) return false;
  try {
    const session = JSON.parse(raw) as { refresh_token?: unknown } | null;
    return typeof session?.refresh_token === 'string' && session.refresh_token !== '';
  } catch {
    return false;
  }
}
