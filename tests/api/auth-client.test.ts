import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { GoTrueClient, isAuthWeakPasswordError } from '@supabase/auth-js';
import { Secret, TOTP } from 'otpauth';
import decodeQR from 'qr/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, startTestRuntime } from '../support/test-runtime.ts';

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
    runtime = await startTestRuntime('pglite', { now: new Date().toISOString() });
    server = serve({ fetch: runtime.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await runtime?.close();
  });

  const newClient = () => {
    const store = new Map<string, string>();
    return new GoTrueClient({
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
});
