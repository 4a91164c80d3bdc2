import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { GoTrueClient, isAuthSessionMissingError, isAuthWeakPasswordError } from '@supabase/auth-js';
import { Secret, TOTP } from 'otpauth';
import decodeQR from 'qr/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, startTestRuntime } from '../support/test-runtime.ts';
import { freshIp } from './auth-helpers.ts';

/**
 * Reads the QR code of a `data:image/svg+xml` URI as a scanner would: the SVG's modules (one `M x y` square each,
 * as app-server/auth/qr-code-svg.ts draws them) painted into an RGBA bitmap, then decoded by the `qr` package's reader.
 */
function scanSvgQrCode(dataUri: string): string {
  const svg = dataUri.slice('data:image/svg+xml;utf-8,'.length);
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
  const scale = 4;
  const width = size * scale;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const at = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
        data.fill(0, at, at + 3);
      }
    }
  }
  return decodeQR({ width, height: width, data });
}

/** The standard client (@supabase/auth-js) against a real listening server. */
describe('auth with the standard GoTrue client', () => {
  let runtime: TestRuntime;
  let server: ServerType;
  let url: string;

  beforeAll(async () => {
    // The client judges expiry by the wall clock, so the server's clock starts at real time.
    // Each client comes from its own address (X-Forwarded-For), so the per-IP sign-up limit spans no two tests.
    runtime = await startTestRuntime('pglite', { now: new Date().toISOString(), config: { AUTH_TRUST_PROXY: true } });
    server = serve({ fetch: runtime.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await runtime?.close();
  });

  const newClient = (flowType: 'implicit' | 'pkce' = 'implicit') => {
    const store = new Map<string, string>();
    return new GoTrueClient({
      flowType,
      headers: { 'x-forwarded-for': freshIp() },
      url: `${url}/auth/v1`,
      storage: {
        getItem: (k) => store.get(k) ?? null,
        setItem: (k, v) => void store.set(k, v),
        removeItem: (k) => void store.delete(k),
      },
      autoRefreshToken: false,
      persistSession: true,
    });
  };

  const mailTo = async (email: string) => {
    const res = await fetch(`${url}/dev/mail?to=${encodeURIComponent(email)}`);
    return ((await res.json()) as { mail: { text: string; links: string[] }[] }).mail[0]!;
  };

  it('signs up, confirms through /dev/mail, signs in, refreshes, reads and updates the user, signs out', async () => {
    const client = newClient();
    const events: string[] = [];
    client.onAuthStateChange((event) => void events.push(event));
    const email = 'client@example.com';
    const password = 'first password';
    const signUp = await client.signUp({
      email,
      password,
      options: { data: { display_name: 'Client' }, emailRedirectTo: 'http://localhost:5173/app' },
    });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();
    expect(signUp.data.user?.email).toBe(email);

    const early = await client.signInWithPassword({ email, password });
    expect(early.error?.code).toBe('email_not_confirmed');

    const confirmation = await mailTo(email);
    // The mailed link names PUBLIC_URL; this server listens on a random port.
    const link = new URL(confirmation.links[0]!);
    const landed = await fetch(new URL(link.pathname + link.search, url), { redirect: 'manual' });
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toMatch(/^http:\/\/localhost:5173\/app#access_token=/);

    const signIn = await client.signInWithPassword({ email, password });
    expect(signIn.error).toBeNull();
    expect(signIn.data.session?.refresh_token).toBeTruthy();

    const claims = await client.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims).toMatchObject({ email, aal: 'aal1', aud: 'authenticated' });

    const refreshed = await client.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(signIn.data.session?.refresh_token);

    const got = await client.getUser();
    expect(got.data.user?.email_confirmed_at).toBeTruthy();

    const updatedData = await client.updateUser({ data: { favourite_distance: '10k' } });
    expect(updatedData.error).toBeNull();
    expect(updatedData.data.user?.user_metadata.favourite_distance).toBe('10k');

    const withoutNonce = await client.updateUser({ password: 'second password' });
    expect(withoutNonce.error?.code).toBe('reauthentication_needed');
    runtime.clock.advance(61_000); // one mail a minute per address
    expect((await client.reauthenticate()).error).toBeNull();
    const nonce = /Your code: (\d{6})/.exec((await mailTo(email)).text)![1]!;
    const changed = await client.updateUser({ password: 'second password', nonce });
    expect(changed.error).toBeNull();

    const signOut = await client.signOut();
    expect(signOut.error).toBeNull();
    expect((await client.getSession()).data.session).toBeNull();
    const again = await client.signInWithPassword({ email, password: 'second password' });
    expect(again.error).toBeNull();
    expect(events).toEqual(expect.arrayContaining(['SIGNED_IN', 'TOKEN_REFRESHED', 'USER_UPDATED', 'SIGNED_OUT']));
  });

  it('enrols a TOTP factor and raises the session to aal2', async () => {
    const client = newClient();
    const email = 'mfa@example.com';
    await client.signUp({ email, password: 'mfa password', options: { data: { display_name: 'Mfa' } } });
    const code = /Or enter this code: (\d{6})/.exec((await mailTo(email)).text)![1]!;
    const verified = await client.verifyOtp({ email, token: code, type: 'signup' });
    expect(verified.error).toBeNull();

    const enrolled = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(enrolled.error).toBeNull();
    // The client turns GoTrue's SVG into a data URI for an <img>; it scans to the authenticator URI.
    const qrCode = enrolled.data!.totp.qr_code;
    expect(qrCode.startsWith('data:image/svg+xml;utf-8,<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(qrCode).not.toContain('#');
    expect(scanSvgQrCode(qrCode)).toBe(enrolled.data!.totp.uri);
    expect(enrolled.data!.totp.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const factorId = enrolled.data!.id;
    const totp = new TOTP({ secret: Secret.fromBase32(enrolled.data!.totp.secret), digits: 6, period: 30 });
    const challenge = await client.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    const wrong = await client.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: '000000' === totp.generate({ timestamp: runtime.clock.now().getTime() }) ? '111111' : '000000',
    });
    expect(wrong.error?.code).toBe('mfa_verification_failed');
    const ok = await client.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: totp.generate({ timestamp: runtime.clock.now().getTime() }),
    });
    expect(ok.error).toBeNull();

    const level = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const factors = await client.mfa.listFactors();
    expect(factors.data?.totp.map((f) => f.id)).toEqual([factorId]);
    const refreshed = await client.refreshSession();
    expect((await client.getClaims(refreshed.data.session!.access_token)).data?.claims.aal).toBe('aal2');

    // A fresh password sign-in is aal1 and cannot remove the factor.
    const other = newClient();
    await other.signInWithPassword({ email, password: 'mfa password' });
    expect((await other.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    });
    expect((await other.mfa.unenroll({ factorId })).error?.code).toBe('insufficient_aal');
    expect((await client.mfa.unenroll({ factorId })).error).toBeNull();
  });

  it('gets GoTrue answers: sign-up without a display name, weak passwords, disabled features, invalid JWTs', async () => {
    const client = newClient();
    const weak = await client.signUp({ email: 'weak@example.com', password: 'Sunshine1' });
    expect(isAuthWeakPasswordError(weak.error)).toBe(true);
    expect(weak.error?.status).toBe(422);
    expect(isAuthWeakPasswordError(weak.error) && weak.error.reasons).toEqual(['pwned']);
    const blank = await client.signUp({ email: 'weak@example.com', password: '          ' });
    expect(isAuthWeakPasswordError(blank.error) && blank.error.reasons).toEqual(['characters']);

    const email = 'nameless+runner@example.com';
    const signUp = await client.signUp({ email, password: 'no name given here' });
    expect(signUp.error).toBeNull();
    expect(signUp.data.user?.user_metadata.display_name).toBe('nameless');
    const code = /Or enter this code: (\d{6})/.exec((await mailTo(email)).text)![1]!;
    expect((await client.verifyOtp({ email, token: code, type: 'signup' })).error).toBeNull();

    const anonymous = await newClient().signInAnonymously();
    expect({ status: anonymous.error?.status, code: anonymous.error?.code }).toEqual({
      status: 422,
      code: 'anonymous_provider_disabled',
    });
    const sso = await client.signInWithSSO({ domain: 'example.com' });
    expect({ status: sso.error?.status, code: sso.error?.code }).toEqual({
      status: 404,
      code: 'saml_provider_disabled',
    });
    const link = await client.linkIdentity({ provider: 'github', options: { skipBrowserRedirect: true } });
    expect({ status: link.error?.status, code: link.error?.code }).toEqual({
      status: 404,
      code: 'manual_linking_disabled',
    });
    const forged = await client.getUser('not.a.jwt');
    expect(forged.error?.message).toMatch(/^invalid JWT: /);
    // No enumeration: an OTP for an unknown address without sign-up is answered like one for a known address.
    const unknown = await newClient().signInWithOtp({
      email: 'nobody-here@example.com',
      options: { shouldCreateUser: false },
    });
    expect(unknown.error).toBeNull();
  });
  /*
   * The cases of the upstream client suite (supabase-js packages/core/auth-js/test/GoTrueClient.test.ts) that failed
   * against this server, each asserting what the upstream test asserts, against GoTrue's own answers
   * (supabase/auth internal/api/*.go). Where the upstream run relies on a GoTrue setting this server does not have
   * (auto-confirm on, anonymous users, a 6-character minimum), the comment says what GoTrue answers in ours.
   */
  describe('upstream GoTrueClient cases', () => {
    it("fail to signUp() with invalid password: GoTrue's 'Password should be at least N characters.'", async () => {
      const { error, data } = await newClient().signUp({ email: 'asd@a.aa', password: '123' });
      expect(data?.session).toBeNull();
      expect(error).not.toBeNull();
      // Upstream's GoTrue runs with the default minimum of 6; ours is 8 (GOTRUE_PASSWORD_MIN_LENGTH=8).
      expect(error?.message).toContain('Password should be at least 8 characters');
      expect(isAuthWeakPasswordError(error) && error.reasons).toEqual(['length']);
      expect(error?.status).toBe(422);
      const invalidEmail = await newClient().signUp({ email: 'a', password: '123456' });
      expect(invalidEmail.error?.message).toContain('Unable to validate email address: invalid format');
    });

    it('signInWithOtp for email with empty options; verifyOTP fails with empty options (and with an empty token)', async () => {
      const sent = await newClient().signInWithOtp({ email: 'empty-options@example.com', options: {} });
      expect(sent.error).toBeNull();
      expect(sent.data.user).toBeNull();
      expect(sent.data.session).toBeNull();

      // GoTrue looks the phone's token up and finds none: 403 otp_expired (no phone account exists here).
      const phone = await newClient().verifyOtp({
        phone: '+15555550123',
        type: 'phone_change',
        token: '123456',
        options: {},
      });
      expect(phone.error).not.toBeNull();
      expect(phone.error?.message).toContain('Token has expired or is invalid');
      expect({ status: phone.error?.status, code: phone.error?.code }).toEqual({ status: 403, code: 'otp_expired' });
      const badPhone = await newClient().verifyOtp({ phone: 'not a phone', type: 'sms', token: '123456' });
      expect(badPhone.error?.message).toBe('Invalid phone number format (E.164 required)');

      // Neither a token nor a token hash: GoTrue's 400 validation_failed.
      const empty = await newClient().verifyOtp({ email: 'empty-options@example.com', token: '', type: 'email' });
      expect({ status: empty.error?.status, code: empty.error?.code, message: empty.error?.message }).toEqual({
        status: 400,
        code: 'validation_failed',
        message: 'Verify requires either a token or a token hash',
      });
      expect(empty.data.session).toBeNull();
      const wrong = await newClient().verifyOtp({ email: 'empty-options@example.com', token: '12345', type: 'email' });
      expect(wrong.error?.message).toContain('Token has expired or is invalid');
    });

    it('signInWithOtp() under flowType pkce: the link answers ?code= for exchangeCodeForSession, the typed code verifies', async () => {
      const client = newClient('pkce');
      const email = 'otp-pkce@example.com';
      const sent = await client.signInWithOtp({ email, options: { emailRedirectTo: 'http://localhost:5173/app' } });
      expect(sent.error).toBeNull();
      expect(sent.data).toMatchObject({ user: null, session: null });
      const link = new URL((await mailTo(email)).links[0]!);
      const landed = await fetch(new URL(link.pathname + link.search, url), { redirect: 'manual' });
      expect(landed.status).toBe(303);
      const location = new URL(landed.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe('http://localhost:5173/app');
      expect(location.hash).toBe(''); // no tokens in the address under PKCE
      const code = location.searchParams.get('code')!;
      const exchanged = await client.exchangeCodeForSession(code);
      expect(exchanged.error).toBeNull();
      expect(exchanged.data.session?.access_token).toBeTruthy();
      expect(exchanged.data.user?.email).toBe(email);
      expect((await client.getSession()).data.session?.user.email).toBe(email);
      // A code is single use: GoTrue's 404 flow_state_not_found the second time.
      const replay = await newClient('pkce').exchangeCodeForSession(code);
      expect(replay.error).not.toBeNull();

      // The same mail's typed code, now for a confirmed account (a magic link), verifies to a session.
      runtime.clock.advance(61_000);
      const other = newClient('pkce');
      expect((await other.signInWithOtp({ email })).error).toBeNull();
      const typed = /Or enter this code: (\d{6})/.exec((await mailTo(email)).text)![1]!;
      const verified = await other.verifyOtp({ email, token: typed, type: 'email' });
      expect(verified.error).toBeNull();
      expect(verified.data.session?.user.email).toBe(email);
      // And its link's token as a token hash (what @supabase/ssr's callback does with {{ .TokenHash }}).
      runtime.clock.advance(61_000);
      const third = newClient('pkce');
      expect((await third.signInWithOtp({ email })).error).toBeNull();
      const tokenHash = new URL((await mailTo(email)).links[0]!).searchParams.get('token')!;
      const hashed = await third.verifyOtp({ token_hash: tokenHash, type: 'magiclink' });
      expect(hashed.error).toBeNull();
      expect(hashed.data.session?.user.email).toBe(email);

      // A new address's typed code (its mail is a sign-up confirmation) verifies as type 'email' too.
      const fresh = newClient('pkce');
      expect((await fresh.signInWithOtp({ email: 'otp-pkce-new@example.com' })).error).toBeNull();
      const freshCode = /Or enter this code: (\d{6})/.exec((await mailTo('otp-pkce-new@example.com')).text)![1]!;
      const freshSession = await fresh.verifyOtp({
        email: 'otp-pkce-new@example.com',
        token: freshCode,
        type: 'email',
      });
      expect(freshSession.error).toBeNull();
      expect(freshSession.data.user?.email_confirmed_at).toBeTruthy();

      // Upstream's 'signInWithOtp() with PKCE flow should return error' expects GoTrue's 422 otp_disabled for an
      // unknown address with shouldCreateUser false; here that answer would tell who has an account, so it is {}.
      const unknown = await newClient('pkce').signInWithOtp({
        email: 'nobody-pkce@example.com',
        options: { shouldCreateUser: false },
      });
      expect(unknown.error).toBeNull();
    });

    it('signUp() the same user twice should not share email already registered message', async () => {
      const client = newClient();
      const email = 'twice@example.com';
      const first = await client.signUp({ email, password: 'twice password here' });
      expect(first.error).toBeNull();
      // Upstream's first sign-up is auto-confirmed; here the owner confirms it, and a minute passes (the mail quota).
      const code = /Or enter this code: (\d{6})/.exec((await mailTo(email)).text)![1]!;
      expect((await client.verifyOtp({ email, token: code, type: 'signup' })).error).toBeNull();
      await client.signOut();
      runtime.clock.advance(61_000);
      const again = await client.signUp({ email, password: 'twice password here' });
      // GoTrue with e-mail confirmation on (as here) answers 200 with an obfuscated user, no session and no error
      // (its 422 user_already_exists "User already registered" is only for auto-confirm, where sign-up signs in).
      expect(again.error).toBeNull();
      expect(again.data.session).toBeNull();
      expect(again.data.user?.email).toBe(email);
      expect(again.data.user?.id).not.toBe(first.data.user?.id);
      expect(again.data.user?.email_confirmed_at).toBeUndefined();
      expect(JSON.stringify(again)).not.toMatch(/already/i);
    });

    it('reauthenticate() fails without session; returns null user and session with one', async () => {
      const client = newClient();
      const { data, error } = await client.reauthenticate();
      expect(data?.session).toBeNull();
      expect(error).not.toBeNull();
      // Upstream's client holds an anonymous session at this point (its 'signInAnonymously' tests run first), so
      // GoTrue answers "Reauthentication requires the user to have an email or a phone number"; anonymous sign-in is
      // disabled here (422 anonymous_provider_disabled), so without a session the client refuses before calling.
      expect(isAuthSessionMissingError(error)).toBe(true);
      // Called without a bearer token, the server answers as GoTrue's requireAuthentication does.
      const bare = await fetch(`${url}/auth/v1/reauthenticate`);
      expect(bare.status).toBe(401);
      expect(await bare.json()).toMatchObject({
        code: 'no_authorization',
        msg: 'This endpoint requires a valid Bearer token',
      });

      const email = 'reauth@example.com';
      await client.signUp({ email, password: 'reauth password here' });
      const code = /Or enter this code: (\d{6})/.exec((await mailTo(email)).text)![1]!;
      expect((await client.verifyOtp({ email, token: code, type: 'signup' })).error).toBeNull();
      const withSession = await client.reauthenticate();
      expect(withSession.error).toBeNull();
      expect(withSession.data).toEqual({ user: null, session: null });
      // GoTrue's answers for a missing and a wrong nonce.
      const missing = await client.updateUser({ password: 'a brand new password' });
      expect({ status: missing.error?.status, code: missing.error?.code, message: missing.error?.message }).toEqual({
        status: 400,
        code: 'reauthentication_needed',
        message: 'Password update requires reauthentication',
      });
      const wrongNonce = code === '000000' ? '111111' : '000000';
      const wrong = await client.updateUser({ password: 'a brand new password', nonce: wrongNonce });
      expect({ status: wrong.error?.status, code: wrong.error?.code, message: wrong.error?.message }).toEqual({
        status: 422,
        code: 'reauthentication_not_valid',
        message: 'Nonce has expired or is invalid',
      });
      await client.signOut();
      expect(isAuthSessionMissingError((await client.reauthenticate()).error)).toBe(true);
    });

    it('signInWithIdToken fails with disabled provider; OAuth /authorize answers GoTrue\'s "Unsupported provider"', async () => {
      const { data, error } = await newClient().signInWithIdToken({
        provider: 'google',
        token: 'mock-id-token',
        nonce: 'mock-nonce',
        options: { captchaToken: 'some_token' },
      });
      expect(data?.session).toBeNull();
      expect(error).not.toBeNull();
      expect(error?.message?.includes('not enabled') || error?.message?.includes('Bad ID token')).toBe(true);
      expect({ status: error?.status, code: error?.code, message: error?.message }).toEqual({
        status: 400,
        code: 'provider_disabled',
        message: 'Provider (issuer "https://accounts.google.com") is not enabled',
      });
      const custom = await newClient().signInWithIdToken({ provider: 'custom:my-oidc-provider', token: 'x' });
      expect(custom.error?.message).toBe('Custom OAuth providers are disabled');
      expect(custom.data.session).toBeNull();

      // signInWithOAuth only builds the address; the browser then gets GoTrue's answer for a provider not enabled.
      const oauth = await newClient().signInWithOAuth({ provider: 'github', options: { skipBrowserRedirect: true } });
      expect(oauth.error).toBeNull();
      const authorize = await fetch(oauth.data.url!, { redirect: 'manual' });
      expect(authorize.status).toBe(400);
      expect(await authorize.json()).toMatchObject({
        code: 'validation_failed',
        msg: 'Unsupported provider: provider is not enabled',
      });
      const unknown = await fetch(`${url}/auth/v1/authorize?provider=invalid-provider`);
      expect(await unknown.json()).toMatchObject({
        msg: 'Unsupported provider: Provider invalid-provider could not be found',
      });
    });

    it('linkIdentity() and unlinkIdentity() fail when manual linking is disabled', async () => {
      const client = newClient();
      const email = 'identities@example.com';
      expect((await client.signUp({ email, password: 'identity password' })).error).toBeNull();
      const code = /Or enter this code: (\d{6})/.exec((await mailTo(email)).text)![1]!;
      expect((await client.verifyOtp({ email, token: code, type: 'signup' })).error).toBeNull();

      const { data: identitiesData } = await client.getUserIdentities();
      expect(identitiesData?.identities).toBeDefined();
      expect(identitiesData?.identities.length).toBeGreaterThan(0);
      const link = await client.linkIdentity({
        provider: 'google',
        options: { redirectTo: 'http://localhost:3000', scopes: 'openid profile email', skipBrowserRedirect: true },
      });
      expect(link.error?.message).toContain('Manual linking is disabled');
      // GoTrue puts both identity routes behind requireManualLinkingEnabled (after requireAuthentication), so
      // unlinking answers 404 manual_linking_disabled before single_identity_not_deletable or identity_not_found.
      const { error } = await client.unlinkIdentity(identitiesData!.identities[0]!);
      expect(error).not.toBeNull();
      expect(error?.message).toContain('Manual linking is disabled');
      expect({ status: error?.status, code: error?.code }).toEqual({ status: 404, code: 'manual_linking_disabled' });
      const bare = await fetch(`${url}/auth/v1/user/identities/${identitiesData!.identities[0]!.identity_id}`, {
        method: 'DELETE',
      });
      expect(bare.status).toBe(401);
    });
  });
});
