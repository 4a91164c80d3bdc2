import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, databaseTargets, startTestRuntime } from '../support/test-runtime.ts';
import { lastCode, lastMail, signedInUser } from './auth-helpers.ts';

describe.each(databaseTargets())('account profile, recovery, email change and deletion (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { config: { AUTH_TRUST_PROXY: true } });
  });
  afterAll(async () => runtime?.close());

  it('updates the time zone and display name, validating both', async () => {
    const { session } = await signedInUser(runtime, 'profile');
    const token = session.access_token;
    const ok = await runtime.request('PATCH', '/auth/me', {
      token,
      body: { timezone: 'America/Chicago', display_name: ' New  Name ' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ timezone: 'America/Chicago', display_name: 'New Name' });
    const events = await runtime.store.readStream(`user-${session.user.id}`);
    expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'ProfileUpdated']);
    const cases: [unknown, string][] = [
      [{ timezone: 'America/Chicago' }, 'No changes to save'],
      [{ timezone: 'Not/AZone' }, 'Time zone must be a valid IANA time zone'],
      [{ display_name: '' }, 'Display name is required'],
      [{ timezone: 5 }, 'timezone must be a string'],
      [{ email: 'x@example.com' }, 'Only timezone and display_name can be changed'],
      ['{bad', 'Request body must be valid JSON'],
    ];
    for (const [body, error] of cases) {
      const res = await runtime.request('PATCH', '/auth/me', { token, body });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: expect.objectContaining({ error }) });
    }
    expect((await runtime.request('PATCH', '/auth/me', { body: { timezone: 'UTC' } })).status).toBe(401);
  });

  it('keeps user A out of user B: every token only ever reaches its own account', async () => {
    const a = await signedInUser(runtime, 'alice');
    const b = await signedInUser(runtime, 'bob');
    const meA = await runtime.request('GET', '/auth/me', { token: a.session.access_token });
    expect(meA.body.user.id).toBe(a.session.user.id);
    await runtime.request('PATCH', '/auth/me', { token: a.session.access_token, body: { display_name: 'Alice2' } });
    const meB = await runtime.request('GET', '/auth/me', { token: b.session.access_token });
    expect(meB.body.user).toMatchObject({ id: b.session.user.id, display_name: 'bob' });
    // B's factor id cannot be challenged or deleted with A's token.
    const enrolled = await b.call('POST', '/auth/v1/factors', {
      token: b.session.access_token,
      body: { factor_type: 'totp' },
    });
    for (const [method, path] of [
      ['POST', `/auth/v1/factors/${enrolled.body.id}/challenge`],
      ['DELETE', `/auth/v1/factors/${enrolled.body.id}`],
    ] as const) {
      const res = await a.call(method, path, { token: a.session.access_token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('mfa_factor_not_found');
    }
    // B's refresh token cannot be bound to A, and A's logout leaves B signed in.
    await a.call('POST', '/auth/v1/logout', { token: a.session.access_token });
    expect((await runtime.request('GET', '/auth/me', { token: b.session.access_token })).status).toBe(200);
  });

  it('resets a forgotten password through /recover without revealing unknown addresses', async () => {
    const { email, call } = await signedInUser(runtime, 'recover');
    runtime.clock.advance(61_000);
    expect((await call('POST', '/auth/v1/recover', { body: { email: 'unknown@example.com' } })).status).toBe(200);
    expect((await call('POST', '/auth/v1/recover', { body: { email: 'bad' } })).status).toBe(400);
    const res = await call('POST', '/auth/v1/recover', { body: { email } });
    expect(res.status).toBe(200);
    expect((await lastMail(runtime, email)).subject).toBe('Reset your StrideStake password');
    const session = await call('POST', '/auth/v1/verify', {
      body: { type: 'recovery', email, token: await lastCode(runtime, email) },
    });
    expect(session.status).toBe(200);
    const update = await call('PUT', '/auth/v1/user', {
      token: session.body.access_token,
      body: { password: 'brand new password' },
    });
    expect(update.status).toBe(200);
    const signIn = await call('POST', '/auth/v1/token?grant_type=password', {
      body: { email, password: 'brand new password' },
    });
    expect(signIn.status).toBe(200);
  });

  it('changes the e-mail only after reauthentication and confirmation of the new address', async () => {
    const { email, call, session } = await signedInUser(runtime, 'change');
    const token = session.access_token;
    const newEmail = `new-${email}`;
    const noNonce = await call('PUT', '/auth/v1/user', { token, body: { email: newEmail } });
    expect(noNonce.status).toBe(400);
    expect(noNonce.body.code).toBe('reauthentication_needed');
    runtime.clock.advance(61_000);
    expect((await call('GET', '/auth/v1/reauthenticate', { token })).status).toBe(200);
    const wrongNonce = await call('PUT', '/auth/v1/user', { token, body: { email: newEmail, nonce: '000000' } });
    expect(wrongNonce.body.code).toBe('reauthentication_not_valid');
    // The wrong guess counts, but the code still works until five wrong guesses burn it.
    const nonce = /Your code: (\d{6})/.exec((await lastMail(runtime, email)).text)![1]!;
    const pending = await call('PUT', '/auth/v1/user', { token, body: { email: newEmail, nonce } });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ email, new_email: newEmail });
    const confirm = await call('POST', '/auth/v1/verify', {
      body: { type: 'email_change', email: newEmail, token: await lastCode(runtime, newEmail) },
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.user.email).toBe(newEmail);
    const me = await runtime.request('GET', '/auth/me', { token });
    expect(me.body.user.email).toBe(newEmail);
    const badInput = await call('PUT', '/auth/v1/user', { token, body: { password: 'short' } });
    expect(badInput.status).toBe(422);
    expect(badInput.body.code).toBe('weak_password');
    const badData = await call('PUT', '/auth/v1/user', { token, body: { data: 'x' } });
    expect(badData.status).toBe(400);
    expect((await call('PUT', '/auth/v1/user', { body: {} })).status).toBe(401);
  });

  it('refuses bad MFA input with the client codes', async () => {
    const { call, session } = await signedInUser(runtime, 'mfabad');
    const token = session.access_token;
    expect((await call('POST', '/auth/v1/factors', { token, body: { factor_type: 'phone' } })).body.code).toBe(
      'mfa_phone_enroll_not_enabled',
    );
    expect((await call('POST', '/auth/v1/factors', { token, body: { factor_type: 'sms' } })).status).toBe(400);
    const factor = await call('POST', '/auth/v1/factors', { token, body: { factor_type: 'totp', friendly_name: 'A' } });
    expect(factor.body.totp.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(
      (await call('POST', '/auth/v1/factors', { token, body: { factor_type: 'totp', friendly_name: 'A' } })).body.code,
    ).toBe('mfa_factor_name_conflict');
    const challenge = await call('POST', `/auth/v1/factors/${factor.body.id}/challenge`, { token });
    const verify = (body: unknown) => call('POST', `/auth/v1/factors/${factor.body.id}/verify`, { token, body });
    expect((await verify({ code: '123456' })).status).toBe(400);
    expect((await verify({ challenge_id: 'nope', code: '123456' })).body.code).toBe('mfa_challenge_expired');
    expect((await verify({ challenge_id: challenge.body.id, code: 'abc' })).body.code).toBe('mfa_verification_failed');
    runtime.clock.advance(301_000);
    expect((await verify({ challenge_id: challenge.body.id, code: '123456' })).body.code).toBe('mfa_challenge_expired');
    expect((await call('POST', '/auth/v1/factors/unknown/challenge', { token })).status).toBe(404);
  });

  it('deletes an account: personal data erased, the pseudonymous history kept', async () => {
    const { email, password, call, session } = await signedInUser(runtime, 'leaver');
    const token = session.access_token;
    expect((await runtime.request('DELETE', '/auth/me', { token, body: {} })).status).toBe(400);
    runtime.clock.advance(61_000);
    await call('GET', '/auth/v1/reauthenticate', { token });
    const nonce = /Your code: (\d{6})/.exec((await lastMail(runtime, email)).text)![1]!;
    const res = await runtime.request('DELETE', '/auth/me', { token, body: { nonce } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('erased');
    expect((await runtime.request('GET', '/auth/me', { token })).status).toBe(401);
    const signIn = await call('POST', '/auth/v1/token?grant_type=password', { body: { email, password } });
    expect(signIn.body.code).toBe('invalid_credentials');
    const events = await runtime.store.readStream(`user-${session.user.id}`);
    expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'AccountDeletionRequested', 'PersonalDataErased']);
    expect(JSON.stringify(events)).not.toContain(email);
    const row = await runtime.database.db
      .withTables<{ users: { id: string; email: string | null; display_name: string } }>()
      .selectFrom('users')
      .selectAll()
      .where('id', '=', session.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: null, display_name: 'Deleted user' });
    const sources = await runtime.database.db
      .withTables<{ auth_sign_in_sources: { user_id: string } }>()
      .selectFrom('auth_sign_in_sources')
      .select('user_id')
      .where('user_id', '=', session.user.id)
      .execute();
    expect(sources).toEqual([]);
    expect((await runtime.request('GET', `/dev/mail?to=${encodeURIComponent(email)}`)).body.mail).toEqual([]);
    // The address is free again.
    runtime.clock.advance(61_000);
    const again = await call('POST', '/auth/v1/signup', { body: { email, password, data: { display_name: 'Back' } } });
    expect(again.body.identities?.length).toBe(1);
  });
});

describe('development mailbox in production', () => {
  it('does not exist', async () => {
    const runtime = await startTestRuntime('pglite', {
      config: { NODE_ENV: 'production', AUTH_ENCRYPTION_KEY: 'a-production-secret-of-at-least-32-chars' },
      workers: false,
    });
    try {
      expect((await runtime.request('GET', '/dev/mail')).status).toBe(404);
    } finally {
      await runtime.close();
    }
  });
});
