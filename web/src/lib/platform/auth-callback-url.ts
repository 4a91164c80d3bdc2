/** The deep link a native confirmation e-mail opens (the scheme is registered in native/android and native/ios). */
export const NATIVE_AUTH_CALLBACK = 'stridestake://auth/callback';
/**
 * The deep link a password-reset e-mail opens in the native shell: the same callback (the one the server's
 * AUTH_REDIRECT_ALLOW_LIST allows, with any query), told to land on the reset screen rather than the dashboard.
 */
export const NATIVE_PASSWORD_RESET_CALLBACK = `${NATIVE_AUTH_CALLBACK}?next=reset-password`;

/**
 * Where a password-reset e-mail's link leads, given where the shell's confirmation links lead (Shell.authRedirectUrl):
 * in the native shell its reset deep link (the WebView's own origin, capacitor://localhost or https://localhost, is no
 * address an e-mail could open: the server would send the link to the web app instead), on the web the web app's
 * reset screen.
 */
export function passwordResetRedirectUrl(authRedirectUrl: string, origin: string): string {
  return authRedirectUrl === NATIVE_AUTH_CALLBACK ? NATIVE_PASSWORD_RESET_CALLBACK : `${origin}/reset-password`;
}
/**
 * The deep link a provider's OAuth return opens in the native shell (Strava's consent runs in the system browser,
 * which has no session of the app): the API's callback sends the hand-over here, and the app completes it.
 */
export const NATIVE_CONNECTION_RETURN = 'stridestake://connected-apps';

/**
 * The app's own page for a connection-return deep link (`/connected-apps` with the link's query and fragment), or null
 * for any other URL. Parsed and compared by parts, never by prefix (`stridestake://connected-apps.evil` is not it).
 */
export function connectionReturnPath(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const expected = new URL(NATIVE_CONNECTION_RETURN);
  if (parsed.protocol !== expected.protocol || parsed.host !== expected.host) return null;
  if (parsed.username || parsed.password || (parsed.pathname !== '' && parsed.pathname !== '/')) return null;
  return `/connected-apps${parsed.search}${parsed.hash}`;
}
