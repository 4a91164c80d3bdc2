import type { GoTrueClient, Session } from '@supabase/auth-js';
import { API_URL } from './config.ts';
import { sessionReadyToUse } from './ready-session.ts';
import { forgetSignedOutUser, SIGNED_OUT_ELSEWHERE, setSignedOutNotice } from './session-end.ts';
import { STORAGE_KEYS, storage } from './storage.ts';

let client: Promise<GoTrueClient> | null = null;
/** True while this device signs out by the runner's own hand (the Sign Out button). */
let signingOut = false;

/**
 * The standard GoTrue client pointed at our own auth service (docs/auth.md). Session in local storage with
 * auto refresh, persistence and URL detection on (§9), so an e-mailed confirmation link signs the user in.
 *
 * Made on first use, not on import: it is a large download, and a returning runner's first screen needs only the
 * stored session (readySession). It reads the stored session when made, so lib/platform's storage must be installed
 * by then (main.tsx installs it before the app renders).
 *
 * Every end of the session goes through its SIGNED_OUT event, whatever caused it: the user's data leaves the device
 * there (forgetSignedOutUser), and a session that ended without the Sign Out button says so on the sign-in page.
 */
export function loadAuthClient(): Promise<GoTrueClient> {
  client ??= import('@supabase/auth-js').then(({ GoTrueClient }) => {
    const made = new GoTrueClient({
      url: `${API_URL}/auth/v1`,
      storageKey: STORAGE_KEYS.session,
      storage,
      autoRefreshToken: true,
      persistSession: true,
      detectSessionInUrl: true,
    });
    made.onAuthStateChange((event) => {
      if (event !== 'SIGNED_OUT') return;
      if (!signingOut) setSignedOutNotice(SIGNED_OUT_ELSEWHERE);
      forgetSignedOutUser();
    });
    return made;
  });
  return client;
}

/**
 * The stored session when the auth client would hand it out as it is (lib/ready-session.ts), read without loading the
 * client, so the first screen and its requests need not wait for it; null means "ask the client".
 */
export function readySession(): Session | null {
  return sessionReadyToUse(storage.getItem(STORAGE_KEYS.session), window.location, Date.now());
}

/** The signed-in user's access token and id. */
export interface Access {
  readonly token: string;
  readonly userId: string;
}

const accessOf = (session: Session | null | undefined): Access | null =>
  session ? { token: session.access_token, userId: session.user.id } : null;

/** The current access token (refreshed by the client when close to expiry) and its user; null when signed out. */
export async function currentAccess(): Promise<Access | null> {
  const ready = readySession();
  if (ready) return accessOf(ready);
  const { data } = await (await loadAuthClient()).getSession();
  return accessOf(data.session);
}

/** The current access token, refreshed by the client when close to expiry; null when signed out. */
export async function accessToken(): Promise<string | null> {
  return (await currentAccess())?.token ?? null;
}

/** What a 401 of the API came to: a token to send again with, the session ended here, or no telling (offline). */
export type Renewal =
  | { readonly kind: 'renewed'; readonly access: Access }
  | { readonly kind: 'ended' }
  | { readonly kind: 'unknown' };

let renewing: Promise<Renewal> | null = null;

/**
 * Called when the API refused `rejected` (401). Asks the auth service for a new token: a token that merely expired
 * is renewed; a session the auth service no longer has (signed out everywhere, revoked) is refused, and then ended
 * on this device too: removed from storage, the user's data forgotten, the sign-in page told why (SIGNED_OUT). When
 * the auth service cannot be reached, nothing is decided ('unknown'): a network failure never signs anyone out.
 * Concurrent 401s (a screen's requests all fail at once) share one check.
 */
export function renewAfterUnauthorized(rejected: string): Promise<Renewal> {
  renewing ??= (async (): Promise<Renewal> => {
    const auth = await loadAuthClient();
    const { data } = await auth.getSession();
    if (!data.session) return { kind: 'ended' };
    // Another request renewed it already.
    if (data.session.access_token !== rejected) return { kind: 'renewed', access: accessOf(data.session)! };
    const { data: refreshed, error } = await auth.refreshSession();
    if (!error && refreshed.session) return { kind: 'renewed', access: accessOf(refreshed.session)! };
    // Only the auth service's own refusal (4xx: the refresh token is unknown, revoked, the session gone) ends it;
    // no network, a gateway or a server failure leaves the session as it is.
    const { isAuthApiError, isAuthSessionMissingError } = await import('@supabase/auth-js');
    const refused = !error || isAuthSessionMissingError(error) || (isAuthApiError(error) && error.status < 500);
    if (!refused) return { kind: 'unknown' };
    // Refused: the session is gone on the server. The client keeps a session whose access token has not expired
    // yet, so it is removed here (a local sign-out; its request is refused too, which the client ignores).
    await auth.signOut({ scope: 'local' });
    return { kind: 'ended' };
  })().finally(() => {
    renewing = null;
  });
  return renewing;
}

/**
 * The Sign Out button: ends the session on every device (GoTrue's global scope), then this device forgets the user
 * (the SIGNED_OUT event did already; once more in case the client removed the session without one).
 */
export async function signOutEverywhere(): Promise<void> {
  signingOut = true;
  try {
    const { error } = await (await loadAuthClient()).signOut({ scope: 'global' });
    if (error) throw error;
  } finally {
    signingOut = false;
  }
  forgetSignedOutUser();
}
