import type { GoTrueClient, Session } from '@supabase/auth-js';
import { API_URL } from './config.ts';
import { sessionReadyToUse } from './ready-session.ts';
import { STORAGE_KEYS, storage } from './storage.ts';

let client: Promise<GoTrueClient> | null = null;

/**
 * The standard GoTrue client pointed at our own auth service (docs/auth.md). Session in local storage with
 * auto refresh, persistence and URL detection on (§9), so an e-mailed confirmation link signs the user in.
 *
 * Made on first use, not on import: it is a large download, and a returning runner's first screen needs only the
 * stored session (readySession). It reads the stored session when made, so lib/platform's storage must be installed
 * by then (main.tsx installs it before the app renders).
 */
export function loadAuthClient(): Promise<GoTrueClient> {
  client ??= import('@supabase/auth-js').then(
    ({ GoTrueClient }) =>
      new GoTrueClient({
        url: `${API_URL}/auth/v1`,
        storageKey: STORAGE_KEYS.session,
        storage,
        autoRefreshToken: true,
        persistSession: true,
        detectSessionInUrl: true,
      }),
  );
  return client;
}

/**
 * The stored session when the auth client would hand it out as it is (lib/ready-session.ts), read without loading the
 * client, so the first screen and its requests need not wait for it; null means "ask the client".
 */
export function readySession(): Session | null {
  return sessionReadyToUse(storage.getItem(STORAGE_KEYS.session), window.location, Date.now());
}

/** The current access token, refreshed by the client when close to expiry; null when signed out. */
export async function accessToken(): Promise<string | null> {
  const ready = readySession();
  if (ready) return ready.access_token;
  const { data } = await (await loadAuthClient()).getSession();
  return data.session?.access_token ?? null;
}
