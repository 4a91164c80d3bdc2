import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient, lastMail, signedInUser } from '../../tests/api/auth-helpers.ts';
import { startTestRuntime, type TestRuntime } from '../../tests/support/test-runtime.ts';
import { authCallbackDestination, parseAuthCallback } from '../../web/src/lib/platform/auth-callback.ts';
import {
  NATIVE_AUTH_CALLBACK,
  NATIVE_PASSWORD_RESET_CALLBACK,
  passwordResetRedirectUrl,
} from '../../web/src/lib/platform/auth-callback-url.ts';
import { type AppPluginLike, capacitorDeepLinks } from './deep-links.ts';

/** A fake @capacitor/app: `open(url)` is the OS handing the app a link; `removed` once the listener is gone. */
function fakeAppPlugin() {
  let handler: ((event: { url: string }) => void) | null = null;
  const state = { removed: false };
  const plugin = {
    addListener: (_event: string, fn: (event: { url: string }) => void) => {
      handler = fn;
      return Promise.resolve({
        remove: async () => {
          state.removed = true;
        },
      });
    },
  } as unknown as AppPluginLike;
  return { plugin, state, open: (url: string) => handler!({ url }) };
}

describe('capacitorDeepLinks', () => {
  it('forwards appUrlOpen URLs and removes its listener on unsubscribe', async () => {
    const app = fakeAppPlugin();
    const urls: string[] = [];
    const stop = capacitorDeepLinks(app.plugin)((url) => urls.push(url));
    app.open('stridestake://auth/callback?code=1');
    expect(urls).toEqual(['stridestake://auth/callback?code=1']);
    stop();
    await new Promise((r) => setTimeout(r, 0));
    expect(app.state.removed).toBe(true);
  });
});

/**
 * Issue 26, item 5: a password reset asked for from the native shell mails a link that opens the shell (not the web
 * app in the phone's browser) on its reset screen, signed in with the recovery session. Driven through the real auth
 * service with its default AUTH_REDIRECT_ALLOW_LIST: POST /recover as the shell asks, the mailed link followed, and the
 * deep link it redirects to handed to the shell's listener.
 */
describe('the password-reset link from the native shell', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime('pglite', { config: { AUTH_TRUST_PROXY: true } });
  }, 60_000);
  afterAll(async () => runtime?.close());

  it('the shell asks for its reset deep link; the web app for its own reset screen', () => {
    expect(passwordResetRedirectUrl(NATIVE_AUTH_CALLBACK, 'capacitor://localhost')).toBe(
      'stridestake://auth/callback?next=reset-password',
    );
    expect(passwordResetRedirectUrl(NATIVE_AUTH_CALLBACK, 'https://localhost')).toBe(NATIVE_PASSWORD_RESET_CALLBACK);
    expect(passwordResetRedirectUrl('http://localhost:5173/app', 'http://localhost:5173')).toBe(
      'http://localhost:5173/reset-password',
    );
  });

  it('the mailed link opens the shell, which lands on the reset screen with the recovery session', async () => {
    const runner = await signedInUser(runtime, 'native-reset');
    runtime.clock.advance(11 * 60_000); // past the mail quota of the sign-up's confirmation
    const redirect = passwordResetRedirectUrl(NATIVE_AUTH_CALLBACK, 'capacitor://localhost');
    const asked = await authClient(runtime)('POST', `/auth/v1/recover?redirect_to=${encodeURIComponent(redirect)}`, {
      body: { email: runner.email },
    });
    expect(asked.status).toBe(200);
    const mail = await lastMail(runtime, runner.email);
    const link = new URL(mail.links[0]!);
    // The server kept the shell's address (its default allow-list), rather than falling back to the web app.
    expect(link.searchParams.get('redirect_to')).toBe(NATIVE_PASSWORD_RESET_CALLBACK);
    const landed = await runtime.request('GET', link.pathname + link.search);
    expect(landed.status).toBe(303);
    const deepLink = landed.headers.get('location')!;
    expect(deepLink.startsWith(`${NATIVE_PASSWORD_RESET_CALLBACK}#`)).toBe(true);

    // The OS hands the link to the shell; what the shell's listener gets signs in and opens the reset screen.
    const app = fakeAppPlugin();
    const opened: string[] = [];
    capacitorDeepLinks(app.plugin)((url) => opened.push(url));
    app.open(deepLink);
    expect(opened).toEqual([deepLink]);
    const callback = parseAuthCallback(opened[0]!);
    expect(callback?.kind).toBe('session');
    expect(authCallbackDestination(opened[0]!)).toBe('/reset-password');
  });

  it('a PKCE reset (code in the query) lands on the reset screen too; a sign-up confirmation on the dashboard', () => {
    const pkce = new URL(NATIVE_PASSWORD_RESET_CALLBACK);
    pkce.searchParams.set('code', 'abc'); // as GET /verify adds it (verify-routes.ts)
    expect(parseAuthCallback(pkce.href)).toEqual({ kind: 'code', code: 'abc' });
    expect(authCallbackDestination(pkce.href)).toBe('/reset-password');
    expect(authCallbackDestination(`${NATIVE_AUTH_CALLBACK}?code=abc`)).toBe('/app');
    expect(authCallbackDestination(`${NATIVE_AUTH_CALLBACK}#access_token=a&refresh_token=b&type=signup`)).toBe('/app');
    // A link cannot name a page of its own: anything but the reset screen is the dashboard.
    expect(authCallbackDestination(`${NATIVE_AUTH_CALLBACK}?next=/settings/delete-account&code=abc`)).toBe('/app');
    expect(authCallbackDestination(`${NATIVE_AUTH_CALLBACK}?next=https://evil.example&code=abc`)).toBe('/app');
  });
});
