import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, databaseTargets, startTestRuntime } from '../support/test-runtime.ts';
import { authClient, lastCode, lastMail, signedInUser } from './auth-helpers.ts';

const APP_URL = 'http://localhost:5173';
/** The API's own address, as in the report: `http://<api host:port>@evil.example/` passed a prefix check. */
const PUBLIC_URL = 'http://127.0.0.1:3962';

/** The hostile redirect_to values of the report, and their neighbours. */
const HOSTILE = [
  `${PUBLIC_URL}@evil.example/`,
  `${APP_URL}@evil.example/`,
  `${PUBLIC_URL}0/`, // port suffix: :39620 when the API is on :3962
  'http://localhost:5173.evil.example/', // host suffix
  'http://localhost:5173\\@evil.example/',
  '//evil.example/',
  'stridestake://evil.example/callback',
];

/**
 * The account-takeover attack through e-mailed links: a stranger asks for a recovery or magic-link mail for the
 * victim's address with a hostile redirect_to. The genuine mail must never carry, and its link must never redirect
 * to, anything but an allowed address: the session in the fragment goes to APP_URL, never to evil.example.
 */
describe.each(databaseTargets())('e-mailed links redirect only to allowed addresses (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { config: { AUTH_TRUST_PROXY: true, PUBLIC_URL } });
  });
  afterAll(async () => runtime?.close());

  /** The newest mail's link, checked, followed; returns the 303 Location. */
  async function followMailedLink(email: string, editRedirect?: string): Promise<URL> {
    const mail = await lastMail(runtime, email);
    expect(mail.text).not.toMatch(/evil/);
    const link = new URL(mail.links[0]!);
    expect(link.searchParams.get('redirect_to')).toBe(APP_URL);
    if (editRedirect) link.searchParams.set('redirect_to', editRedirect);
    const landed = await runtime.request('GET', link.pathname + link.search);
    expect(landed.status).toBe(303);
    return new URL(landed.headers.get('location')!);
  }

  function expectSessionAtApp(location: URL): void {
    expect(location.origin).toBe(APP_URL);
    expect(location.username).toBe('');
    expect(location.href).not.toMatch(/evil/);
    expect(new URLSearchParams(location.hash.slice(1)).get('access_token')).toBeTruthy();
  }

  it('POST /recover with a hostile redirect_to: the reset link lands on APP_URL with the session', async () => {
    const victim = await signedInUser(runtime, 'victim');
    for (const hostile of HOSTILE) {
      runtime.clock.advance(11 * 60_000); // the mail quota: one a minute, six an hour per address and kind
      const asked = await authClient(runtime)('POST', `/auth/v1/recover?redirect_to=${encodeURIComponent(hostile)}`, {
        body: { email: victim.email },
      });
      expect(asked.status, hostile).toBe(200);
      expectSessionAtApp(await followMailedLink(victim.email));
    }
  });

  it('POST /otp (magic link) with a hostile redirect_to: the link lands on APP_URL with the session', async () => {
    const victim = await signedInUser(runtime, 'magic');
    for (const hostile of HOSTILE) {
      runtime.clock.advance(11 * 60_000);
      const asked = await authClient(runtime)('POST', `/auth/v1/otp?redirect_to=${encodeURIComponent(hostile)}`, {
        body: { email: victim.email, create_user: false },
      });
      expect(asked.status, hostile).toBe(200);
      expectSessionAtApp(await followMailedLink(victim.email));
    }
  });

  it('a mailed link whose redirect_to was edited afterwards still lands where the mail was sent for', async () => {
    const victim = await signedInUser(runtime, 'edited');
    runtime.clock.advance(11 * 60_000);
    await authClient(runtime)('POST', `/auth/v1/recover?redirect_to=${encodeURIComponent(`${APP_URL}/reset`)}`, {
      body: { email: victim.email },
    });
    const mail = await lastMail(runtime, victim.email);
    expect(new URL(mail.links[0]!).searchParams.get('redirect_to')).toBe(`${APP_URL}/reset`);
    const link = new URL(mail.links[0]!);
    // Even an allowed address put in the link afterwards is not followed: the stored, checked one is.
    link.searchParams.set('redirect_to', `${PUBLIC_URL}/elsewhere`);
    const landed = await runtime.request('GET', link.pathname + link.search);
    const location = new URL(landed.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${APP_URL}/reset`);
    // A used or bad link reports its error to the (checked) redirect_to of the link, never to a hostile one.
    for (const hostile of HOSTILE) {
      link.searchParams.set('redirect_to', hostile);
      const again = await runtime.request('GET', link.pathname + link.search);
      const failed = new URL(again.headers.get('location')!);
      expect(failed.origin, hostile).toBe(APP_URL);
      expect(failed.hash).toContain('error_code=otp_expired');
    }
  });

  it('sign-up, resend, e-mail change and PKCE links take the same check; allowed addresses are kept', async () => {
    const hostile = encodeURIComponent(`${PUBLIC_URL}@evil.example/`);
    const email = `redirect-signup-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const signup = await authClient(runtime)('POST', `/auth/v1/signup?redirect_to=${hostile}`, {
      body: { email, password: 'long enough here', data: { display_name: 'Signup' } },
    });
    expect(signup.status).toBe(200);
    expect(new URL((await lastMail(runtime, email)).links[0]!).searchParams.get('redirect_to')).toBe(APP_URL);
    runtime.clock.advance(61_000);
    await authClient(runtime)('POST', `/auth/v1/resend?redirect_to=${hostile}`, { body: { email, type: 'signup' } });
    expectSessionAtApp(await followMailedLink(email));

    // E-mail change: the confirmation to the new address.
    const user = await signedInUser(runtime, 'mover');
    runtime.clock.advance(61_000);
    await user.call('GET', '/auth/v1/reauthenticate', { token: user.session.access_token });
    const nonce = /Your code: (\d{6})/.exec((await lastMail(runtime, user.email)).text)![1]!;
    const newEmail = `moved-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const changed = await user.call('PUT', `/auth/v1/user?redirect_to=${hostile}`, {
      token: user.session.access_token,
      body: { email: newEmail, nonce },
    });
    expect(changed.status).toBe(200);
    expectSessionAtApp(await followMailedLink(newEmail));
    const owner = newEmail; // the account's address from now on

    // PKCE: the code goes to the allowed address in the query, never elsewhere.
    runtime.clock.advance(11 * 60_000);
    await authClient(runtime)('POST', `/auth/v1/recover?redirect_to=${hostile}`, {
      body: { email: owner, code_challenge: 'a'.repeat(43), code_challenge_method: 's256' },
    });
    const pkce = await followMailedLink(owner);
    expect(pkce.origin).toBe(APP_URL);
    expect(pkce.searchParams.get('code')).toBeTruthy();

    // Allowed addresses are kept, in the parser's serialisation: an APP_URL path and the native callback.
    for (const [allowed, landsAt] of [
      [`${APP_URL}/app/reset?from=mail`, `${APP_URL}/app/reset?from=mail`],
      ['stridestake://auth/callback', 'stridestake://auth/callback'],
    ] as const) {
      runtime.clock.advance(11 * 60_000);
      await authClient(runtime)('POST', `/auth/v1/recover?redirect_to=${encodeURIComponent(allowed)}`, {
        body: { email: owner },
      });
      const link = new URL((await lastMail(runtime, owner)).links[0]!);
      expect(link.searchParams.get('redirect_to')).toBe(allowed);
      const landed = await runtime.request('GET', link.pathname + link.search);
      expect(landed.headers.get('location')!.split('#')[0]).toBe(landsAt);
      expect(landed.headers.get('location')).toContain('#access_token=');
    }
    // The code in the same mail still works (it is not a link and has no redirect).
    expect(await lastCode(runtime, owner)).toMatch(/^\d{6}$/);
  });
});
