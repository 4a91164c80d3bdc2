import { GoTrueClient } from '@supabase/auth-js';
import { API_URL } from './config.ts';
import { STORAGE_KEYS, storage } from './storage.ts';

/**
 * The standard GoTrue client pointed at our own auth service (docs/auth.md). Session in local storage with
 * auto refresh, persistence and URL detection on (§9), so an e-mailed confirmation link signs the user in.
 */
export const authClient = new GoTrueClient({
  url: `${API_URL}/auth/v1`,
  storageKey: STORAGE_KEYS.session,
  storage,
  autoRefreshToken: true,
  persistSession: true,
  detectSessionInUrl: true,
});

/** The current access token, refreshed by the client when close to expiry; null when signed out. */
export async function accessToken(): Promise<string | null> {
  const { data } = await authClient.getSession();
  return data.session?.access_token ?? null;
}
