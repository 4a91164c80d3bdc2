import { NATIVE_AUTH_CALLBACK } from './auth-callback-url.ts';

/** What an auth callback URL carries: a PKCE code to exchange, a session to set, or the error it reports. */
export type AuthCallback =
  | { readonly kind: 'code'; readonly code: string }
  | { readonly kind: 'session'; readonly accessToken: string; readonly refreshToken: string }
  | { readonly kind: 'error'; readonly message: string };

/**
 * Reads `stridestake://auth/callback?…#…` (§2 auth callback deep link). Both the query and the fragment are read,
 * the fragment winning: the implicit flow puts tokens there, PKCE puts `code` in the query. Null for any other URL.
 */
export function parseAuthCallback(url: string): AuthCallback | null {
  if (!url.startsWith(NATIVE_AUTH_CALLBACK)) return null;
  const rest = url.slice(NATIVE_AUTH_CALLBACK.length);
  if (rest !== '' && !/^[/?#]/.test(rest)) return null;
  const hashAt = rest.indexOf('#');
  const query = hashAt < 0 ? rest : rest.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : rest.slice(hashAt + 1);
  const params = new URLSearchParams(query.slice(query.indexOf('?') + 1 || query.length));
  for (const [key, value] of new URLSearchParams(fragment)) params.set(key, value);
  const error = params.get('error_description') ?? params.get('error');
  if (error) return { kind: 'error', message: error };
  const code = params.get('code');
  if (code) return { kind: 'code', code };
  const accessToken = params.get('access_token');
  const refreshToken = params.get('refresh_token');
  if (accessToken && refreshToken) return { kind: 'session', accessToken, refreshToken };
  return { kind: 'error', message: 'No session defined in URL' };
}

/**
 * The screen an auth callback lands on once signed in: the reset screen for a password-reset link (our own
 * `next=reset-password`, or the `type=recovery` the implicit flow puts in the fragment), else the dashboard. A fixed
 * choice of two: a link never names a page of its own.
 */
export function authCallbackDestination(url: string): '/reset-password' | '/app' {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const query = new URLSearchParams(queryAt < 0 ? '' : beforeHash.slice(queryAt + 1));
  const fragment = new URLSearchParams(hashAt < 0 ? '' : url.slice(hashAt + 1));
  const recovery = query.get('next') === 'reset-password' || fragment.get('type') === 'recovery';
  return recovery ? '/reset-password' : '/app';
}

/** The two auth client calls a callback needs (GoTrueClient has both). */
export interface AuthCallbackClient {
  exchangeCodeForSession(code: string): Promise<{ error: Error | null }>;
  setSession(session: { access_token: string; refresh_token: string }): Promise<{ error: Error | null }>;
}

/** Signs in from a callback URL; throws the auth library's error, or the URL's own. */
export async function completeAuthCallback(callback: AuthCallback, client: AuthCallbackClient): Promise<void> {
  if (callback.kind === 'error') throw new Error(callback.message);
  const { error } =
    callback.kind === 'code'
      ? await client.exchangeCodeForSession(callback.code)
      : await client.setSession({ access_token: callback.accessToken, refresh_token: callback.refreshToken });
  if (error) throw error;
}
