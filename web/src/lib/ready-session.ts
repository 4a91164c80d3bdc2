import type { Session } from '@supabase/auth-js';

/** GoTrue's EXPIRY_MARGIN_MS: an access token closer than this to its expiry is refreshed before it is used. */
const EXPIRY_MARGIN_MS = 90_000;

/** What a sign-in link brings in its query or fragment (implicit-flow tokens, a PKCE code, an error). */
const SIGN_IN_LINK_PARAMS = ['access_token', 'code', 'error', 'error_description', 'error_code'] as const;

function isSignInLink({ search, hash }: Pick<Location, 'search' | 'hash'>): boolean {
  const params = [new URLSearchParams(search), new URLSearchParams(hash.slice(1))];
  return params.some((found) => SIGN_IN_LINK_PARAMS.some((name) => found.has(name)));
}

/**
 * The stored session (`stored`, the auth client's JSON) when the auth client would hand it out as it is: its access
 * token lives longer than the client's refresh margin, and the page (`location`) is not a sign-in link, from which
 * the client makes another session. Null means "ask the client": it may refresh the token, or read the link.
 * Pure, so that the page's inline script (lib/first-requests.ts) and the app (lib/auth-client.ts) judge alike.
 */
export function sessionReadyToUse(
  stored: string | null,
  location: Pick<Location, 'search' | 'hash'>,
  now: number,
): Session | null {
  if (stored === null || isSignInLink(location)) return null;
  try {
    const session = JSON.parse(stored) as Partial<Session> | null;
    const usable =
      typeof session?.access_token === 'string' &&
      typeof session.refresh_token === 'string' &&
      typeof session.expires_at === 'number' &&
      typeof session.user?.id === 'string' &&
      session.expires_at * 1000 - now > EXPIRY_MARGIN_MS;
    return usable ? (session as Session) : null;
  } catch {
    return null;
  }
}
