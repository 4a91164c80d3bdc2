import { SignJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, databaseTargets, startTestRuntime } from '../support/test-runtime.ts';
import { authClient, signedInUser } from './auth-helpers.ts';

describe.each(databaseTargets())('auth sessions and tokens (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { config: { AUTH_TRUST_PROXY: true } });
  });
  afterAll(async () => runtime?.close());

  it('signs in with a password and issues an ES256 access token verifiable with the JWKS', async () => {
    const { email, password, call } = await signedInUser(runtime, 'jwt');
    const res = await call('POST', '/auth/v1/token?grant_type=password', { body: { email, password } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { email } });
    const header = decodeProtectedHeader(res.body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(header.kid).toBeTruthy();
    const jwks = await runtime.request('GET', '/auth/v1/.well-known/jwks.json');
    const { payload } = await jwtVerify(res.body.access_token, createLocalJWKSet(jwks.body), {
      currentDate: runtime.clock.now(),
      audience: 'authenticated',
    });
    expect(payload).toMatchObject({ sub: res.body.user.id, aal: 'aal1', role: 'authenticated', email });
    expect(payload.exp).toBe(res.body.expires_at);
  });

  it('refuses wrong credentials alike for unknown and known addresses', async () => {
    const { email, call } = await signedInUser(runtime, 'creds');
    const wrong = await call('POST', '/auth/v1/token?grant_type=password', {
      body: { email, password: 'wrong password' },
    });
    const unknown = await call('POST', '/auth/v1/token?grant_type=password', {
      body: { email: 'ghost@example.com', password: 'wrong password' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_credentials', msg: 'Invalid login credentials' });
    }
    const noPassword = await call('POST', '/auth/v1/token?grant_type=password', { body: { email } });
    expect(noPassword.status).toBe(400);
    const badGrant = await call('POST', '/auth/v1/token?grant_type=magic', { body: {} });
    expect(badGrant.status).toBe(400);
    expect(badGrant.body.msg).toBe('Unsupported grant_type: magic');
  });

  it('answers GoTrue\'s status and code for disabled features, and "not supported" for the rest', async () => {
    const call = authClient(runtime);
    const answers = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await call(method, path, { body, token });
      return { status: res.status, code: res.body?.code, msg: res.body?.msg };
    };
    expect(await answers('POST', '/auth/v1/token?grant_type=web3', { chain: 'ethereum' })).toEqual({
      status: 422,
      code: 'web3_provider_disabled',
      msg: 'Web3 provider is disabled',
    });
    expect(await answers('POST', '/auth/v1/sso', { domain: 'example.com' })).toEqual({
      status: 404,
      code: 'saml_provider_disabled',
      msg: 'SAML 2.0 is disabled',
    });
    expect((await answers('GET', '/auth/v1/sso/saml/metadata')).code).toBe('saml_provider_disabled');
    expect(await answers('POST', '/auth/v1/signup', { data: {} })).toEqual({
      status: 422,
      code: 'anonymous_provider_disabled',
      msg: 'Anonymous sign-ins are disabled',
    });
    // GoTrue: the identity routes need a session first, then answer that manual linking is disabled (both of them).
    expect((await answers('GET', '/auth/v1/user/identities/authorize?provider=github')).status).toBe(401);
    const { session } = await signedInUser(runtime, 'unlink');
    const linking = await answers(
      'GET',
      '/auth/v1/user/identities/authorize?provider=github',
      undefined,
      session.access_token,
    );
    expect(linking).toEqual({ status: 404, code: 'manual_linking_disabled', msg: 'Manual linking is disabled' });
    const unlink = await answers(
      'DELETE',
      `/auth/v1/user/identities/${session.user.id}`,
      undefined,
      session.access_token,
    );
    expect(unlink).toEqual({ status: 404, code: 'manual_linking_disabled', msg: 'Manual linking is disabled' });
    expect((await answers('DELETE', `/auth/v1/user/identities/${session.user.id}`)).status).toBe(401);
    const idToken = await answers('POST', '/auth/v1/token?grant_type=id_token', { provider: 'google', id_token: 'x' });
    expect(idToken).toEqual({
      status: 400,
      code: 'provider_disabled',
      msg: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
    expect(await answers('POST', '/auth/v1/token?grant_type=id_token', { provider: 'google' })).toEqual({
      status: 400,
      code: 'validation_failed',
      msg: 'id_token required',
    });
    expect(
      (await answers('POST', '/auth/v1/token?grant_type=id_token', { provider: 'custom:corp', id_token: 'x' })).msg,
    ).toBe('Custom OAuth providers are disabled');
    expect((await answers('POST', '/auth/v1/token?grant_type=id_token', { provider: 'nope', id_token: 'x' })).msg).toBe(
      'Custom OIDC provider "nope" not allowed',
    );
    expect(await answers('GET', '/auth/v1/authorize?provider=github')).toEqual({
      status: 400,
      code: 'validation_failed',
      msg: 'Unsupported provider: provider is not enabled',
    });
    expect((await answers('GET', '/auth/v1/authorize?provider=custom:corp')).msg).toBe(
      'Unsupported provider: custom OAuth providers are disabled',
    );
    expect(await answers('GET', '/auth/v1/nothing-here')).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('rotates refresh tokens; a rotated one replayed after the grace revokes the family', async () => {
    const { call, session } = await signedInUser(runtime, 'rotate');
    const first = await call('POST', '/auth/v1/token?grant_type=refresh_token', {
      body: { refresh_token: session.refresh_token },
    });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(session.refresh_token);
    // Within the grace (a client that lost the answer) the old token still works once more.
    const retry = await call('POST', '/auth/v1/token?grant_type=refresh_token', {
      body: { refresh_token: session.refresh_token },
    });
    expect(retry.status).toBe(200);
    runtime.clock.advance(30_000);
    const replay = await call('POST', '/auth/v1/token?grant_type=refresh_token', {
      body: { refresh_token: session.refresh_token },
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({
      code: 'refresh_token_already_used',
      msg: 'Invalid Refresh Token: Already Used',
    });
    // The whole family is gone: the newest token and the access token no longer work.
    const newest = await call('POST', '/auth/v1/token?grant_type=refresh_token', {
      body: { refresh_token: retry.body.refresh_token },
    });
    expect(newest.status).toBe(400);
    expect(newest.body.code).toBe('refresh_token_not_found');
    const user = await call('GET', '/auth/v1/user', { token: retry.body.access_token });
    expect(user.status).toBe(403);
    expect(user.body.code).toBe('session_not_found');
    const garbage = await call('POST', '/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: 'nope' } });
    expect(garbage.body.code).toBe('refresh_token_not_found');
    const missing = await call('POST', '/auth/v1/token?grant_type=refresh_token', { body: {} });
    expect(missing.status).toBe(400);
  });

  it('ends sessions after the idle lifetime', async () => {
    const { call, session } = await signedInUser(runtime, 'idle');
    runtime.clock.advance(8 * 24 * 3600 * 1000);
    const res = await call('POST', '/auth/v1/token?grant_type=refresh_token', {
      body: { refresh_token: session.refresh_token },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('session_expired');
  });

  it('ends sessions after the absolute lifetime even when refreshed', async () => {
    const { call, session } = await signedInUser(runtime, 'absolute');
    let token = session.refresh_token;
    for (let day = 0; day < 31; day += 6) {
      runtime.clock.advance(6 * 24 * 3600 * 1000);
      const res = await call('POST', '/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: token } });
      if (res.status !== 200) {
        expect(res.body.code).toBe('session_expired');
        expect(day).toBeGreaterThanOrEqual(24);
        return;
      }
      token = res.body.refresh_token;
    }
    throw new Error('session outlived its absolute lifetime');
  });

  it('signs out locally, others, or globally', async () => {
    const { email, password, call } = await signedInUser(runtime, 'logout');
    const signIn = async () =>
      (await call('POST', '/auth/v1/token?grant_type=password', { body: { email, password } })).body
        .access_token as string;
    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    const status = async (token: string) => (await call('GET', '/auth/v1/user', { token })).status;
    expect((await call('POST', '/auth/v1/logout?scope=local', { token: a })).status).toBe(204);
    expect([await status(a), await status(b), await status(c)]).toEqual([403, 200, 200]);
    expect((await call('POST', '/auth/v1/logout?scope=others', { token: b })).status).toBe(204);
    expect([await status(b), await status(c)]).toEqual([200, 403]);
    expect((await call('POST', '/auth/v1/logout?scope=bogus', { token: b })).status).toBe(400);
    expect((await call('POST', '/auth/v1/logout', { token: b })).status).toBe(204);
    expect(await status(b)).toBe(403);
    expect((await call('POST', '/auth/v1/logout')).status).toBe(401);
  });

  it('throttles the guessing IP, not the account', async () => {
    const { email, password } = await signedInUser(runtime, 'throttle');
    const attacker = authClient(runtime);
    const owner = authClient(runtime);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await attacker('POST', '/auth/v1/token?grant_type=password', { body: { email, password: `guess-${i}xx` } }))
          .status,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const blocked = await attacker('POST', '/auth/v1/token?grant_type=password', { body: { email, password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.msg).toMatch(/^Too many sign-in attempts\. Please wait \d+ seconds and try again\.$/);
    const fromOwner = await owner('POST', '/auth/v1/token?grant_type=password', { body: { email, password } });
    expect(fromOwner.status).toBe(200);
    runtime.clock.advance(16 * 60 * 1000);
    expect((await attacker('POST', '/auth/v1/token?grant_type=password', { body: { email, password } })).status).toBe(
      200,
    );
  });

  it('rejects forged, tampered, expired and wrong-audience tokens on the product API with 401', async () => {
    const { session } = await signedInUser(runtime, 'guard');
    const ok = await runtime.request('GET', '/auth/me', { token: session.access_token });
    expect(ok.status).toBe(200);
    const claims = decodeJwt(session.access_token);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(session.access_token).kid! })
      .sign(new TextEncoder().encode('secret'));
    const [h, p, s] = session.access_token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${s}`;
    for (const token of [none, hs, tampered, 'garbage', `${h}.${p}`]) {
      const res = await runtime.request('GET', '/auth/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid access token' });
    }
    expect((await runtime.request('GET', '/auth/me')).body).toEqual({ error: 'Missing bearer token' });
    // Verified tokens are remembered: the remembered one still expires on time.
    runtime.clock.advance(3599 * 1000);
    expect((await runtime.request('GET', '/auth/me', { token: session.access_token })).status).toBe(200);
    runtime.clock.advance(2 * 1000);
    const expired = await runtime.request('GET', '/auth/me', { token: session.access_token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: 'Access token expired' });
    const gotrue = await runtime.request('GET', '/auth/v1/user', { token: session.access_token });
    expect(gotrue.status).toBe(403);
    expect(gotrue.body.code).toBe('bad_jwt');
    expect(gotrue.body.msg).toBe(
      'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
    );
    for (const token of [none, hs, tampered, 'garbage']) {
      const res = await runtime.request('GET', '/auth/v1/user', { token });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'bad_jwt' });
      expect(res.body.msg).toMatch(/^invalid JWT: unable to parse or verify signature, \S/);
    }
  });

  it('rotates signing keys, keeping the old public key published until its tokens expire', async () => {
    const { session } = await signedInUser(runtime, 'keys');
    const oldKid = decodeProtectedHeader(session.access_token).kid;
    const newKid = await runtime.auth.keys.rotate();
    const jwks = (await runtime.request('GET', '/auth/v1/.well-known/jwks.json')).body;
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect(jwks.keys.every((k: Record<string, unknown>) => k.d === undefined && k.alg === 'ES256')).toBe(true);
    expect((await runtime.request('GET', '/auth/me', { token: session.access_token })).status).toBe(200);
    runtime.clock.advance((3600 + 601) * 1000);
    const later = (await runtime.request('GET', '/auth/v1/.well-known/jwks.json')).body;
    expect(later.keys.map((k: { kid: string }) => k.kid)).toEqual([newKid]);
    const stored = await runtime.database.db
      .withTables<{ auth_signing_keys: { private_key_enc: string } }>()
      .selectFrom('auth_signing_keys')
      .select('private_key_enc')
      .execute();
    expect(stored.every((r) => r.private_key_enc.startsWith('v1.') && !r.private_key_enc.includes('"d"'))).toBe(true);
  });
});
