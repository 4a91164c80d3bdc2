import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, databaseTargets, startTestRuntime } from '../support/test-runtime.ts';
import { authClient, lastCode, lastMail } from './auth-helpers.ts';

describe.each(databaseTargets())('auth sign-up and verification (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { config: { AUTH_TRUST_PROXY: true } });
  });
  afterAll(async () => runtime?.close());

  it('signs up an unconfirmed user with a profile, a first event and a confirmation mail', async () => {
    const call = authClient(runtime);
    const res = await call('POST', '/auth/v1/signup?redirect_to=http://localhost:5173/app', {
      body: {
        email: ' Ada@Example.com ',
        password: 'long enough',
        data: { display_name: 'Ada', timezone: 'Asia/Tokyo' },
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(res.body).toMatchObject({
      email: 'ada@example.com',
      aud: 'authenticated',
      user_metadata: { display_name: 'Ada' },
    });
    expect(res.body.email_confirmed_at).toBeUndefined();
    expect(res.body.access_token).toBeUndefined();
    const mail = await lastMail(runtime, 'ada@example.com');
    expect(mail.subject).toBe('Confirm your StrideStake account');
    expect(mail.links[0]).toContain('/auth/v1/verify?token=');
    const events = await runtime.store.readStream(`user-${res.body.id}`);
    expect(events.map((e) => e.type)).toEqual(['UserRegistered']);
    expect(JSON.stringify(events[0]?.data)).not.toContain('Ada');

    const signIn = await call('POST', '/auth/v1/token?grant_type=password', {
      body: { email: 'ada@example.com', password: 'long enough' },
    });
    expect(signIn.status).toBe(400);
    expect(signIn.body).toMatchObject({ code: 'email_not_confirmed', msg: 'Email not confirmed' });

    const link = new URL(mail.links[0]!);
    const verified = await runtime.request('GET', link.pathname + link.search);
    expect(verified.status).toBe(303);
    const location = verified.headers.get('location')!;
    expect(location.startsWith('http://localhost:5173/app#access_token=')).toBe(true);
    const again = await runtime.request('GET', link.pathname + link.search);
    expect(again.headers.get('location')).toContain('error_code=otp_expired');

    const me = await runtime.request('GET', '/auth/me', {
      token: new URLSearchParams(location.split('#')[1]).get('access_token')!,
    });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({
      display_name: 'Ada',
      timezone: 'Asia/Tokyo',
      level: 1,
      total_xp: 0,
      tier: 'Rookie Runner',
    });
    expect(me.body.user.streak).toEqual({ current_streak: 0, longest_streak: 0, last_completed_week: null });
  });

  it('refuses bad input with the client error shape, never a 500', async () => {
    const cases: [unknown, number, string, string][] = [
      [
        { email: 'x@example.com', password: 'short', data: { display_name: 'X' } },
        422,
        'weak_password',
        'Password should be at least 8 characters.',
      ],
      [
        { email: 'not-an-email', password: 'long enough', data: { display_name: 'X' } },
        400,
        'email_address_invalid',
        'Unable to validate email address: invalid format',
      ],
      [
        { email: 'y@example.com', password: 'long enough', data: { display_name: 'y'.repeat(51) } },
        400,
        'validation_failed',
        'Display name must be at most 50 characters',
      ],
      [
        { email: 'y@example.com', password: ' \t      \u00a0 ', data: { display_name: 'Y' } },
        422,
        'weak_password',
        'Password must contain at least one character that is not a space.',
      ],
      [
        { email: 'y@example.com', password: 'Password1', data: { display_name: 'Y' } },
        422,
        'weak_password',
        'Password is known to be weak and easy to guess, please choose a different one.',
      ],
      [
        { email: 'y@example.com', password: 'qwertyuiop', data: { display_name: 'Y' } },
        422,
        'weak_password',
        'Password is known to be weak and easy to guess, please choose a different one.',
      ],
      [
        { phone: '+15555550100', password: 'long enough' },
        400,
        'phone_provider_disabled',
        'Phone sign-up is not supported by this server',
      ],
      [
        { email: 'y@example.com', password: 'long enough', data: { display_name: 'Y', timezone: 'Mars/Base' } },
        400,
        'validation_failed',
        'Time zone must be a valid IANA time zone',
      ],
      [
        { email: 'y@example.com', password: 12345678, data: { display_name: 'Y' } },
        400,
        'validation_failed',
        'password: Password is required',
      ],
      [[1, 2], 400, 'validation_failed', 'Request body must be a JSON object'],
      ['{not json', 400, 'bad_json', 'Could not parse request body as JSON'],
    ];
    for (const [body, status, code, message] of cases) {
      const res = await authClient(runtime)('POST', '/auth/v1/signup', { body });
      expect({ status: res.status, code: res.body?.code, msg: res.body?.msg }).toEqual({ status, code, msg: message });
      expect(res.body.error_code).toBe(code);
    }
    // From another address: the sign-ups above used up this one's hourly allowance.
    const reasons = async (password: string) =>
      (await authClient(runtime)('POST', '/auth/v1/signup', { body: { email: 'w@example.com', password } })).body
        .weak_password;
    expect(await reasons('short')).toEqual({
      reasons: ['length'],
      message: 'Password should be at least 8 characters.',
    });
    expect((await reasons('        ')).reasons).toEqual(['characters']);
    expect((await reasons('iloveyou')).reasons).toEqual(['pwned']);
    // Nothing was created by any refused sign-up.
    const users = await runtime.database.db
      .withTables<{ auth_users: { email: string } }>()
      .selectFrom('auth_users')
      .select('email')
      .where('email', 'in', ['x@example.com', 'y@example.com', 'w@example.com', 'not-an-email'])
      .execute();
    expect(users).toEqual([]);
  });

  it('signs up without a display name, deriving one from the address (the web form still asks for it)', async () => {
    const call = authClient(runtime);
    const res = await call('POST', '/auth/v1/signup', {
      body: { email: 'grace.hopper+runs@example.com', password: 'long enough' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user_metadata.display_name).toBe('grace.hopper');
    const verified = await call('POST', '/auth/v1/verify', {
      body: {
        type: 'signup',
        email: 'grace.hopper+runs@example.com',
        token: await lastCode(runtime, 'grace.hopper+runs@example.com'),
      },
    });
    const me = await runtime.request('GET', '/auth/me', { token: verified.body.access_token });
    expect(me.body.user).toMatchObject({ display_name: 'grace.hopper', timezone: 'America/New_York' });
  });

  it('verifies a typed code once; wrong codes answer otp_expired', async () => {
    const call = authClient(runtime);
    const email = 'code@example.com';
    await call('POST', '/auth/v1/signup', { body: { email, password: 'long enough', data: { display_name: 'Code' } } });
    const wrong = await call('POST', '/auth/v1/verify', { body: { type: 'signup', email, token: '000000' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('otp_expired');
    const code = await lastCode(runtime, email);
    const ok = await call('POST', '/auth/v1/verify', { body: { type: 'signup', email, token: code } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email_confirmed_at).toBeTruthy();
    expect(ok.body.token_type).toBe('bearer');
    const reused = await call('POST', '/auth/v1/verify', { body: { type: 'signup', email, token: code } });
    expect(reused.status).toBe(403);
    const badType = await call('POST', '/auth/v1/verify', { body: { type: 'bogus', email, token: code } });
    expect(badType.status).toBe(400);
  });

  it('sends a magic link by /otp; create_user false answers an unknown address like a known one', async () => {
    const call = authClient(runtime);
    const none = await call('POST', '/auth/v1/otp', { body: { email: 'nobody@example.com', create_user: false } });
    expect({ status: none.status, body: none.body }).toEqual({ status: 200, body: {} });
    expect((await lastMail(runtime, 'nobody@example.com')).text).toContain('but no account uses it');
    const missing = await call('POST', '/auth/v1/otp', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('You must provide either an email or phone number.');
    const created = await call('POST', '/auth/v1/otp', { body: { email: 'otp@example.com', data: {} } });
    expect(created.status).toBe(200);
    const code = await lastCode(runtime, 'otp@example.com');
    const ok = await call('POST', '/auth/v1/verify', {
      body: { type: 'email', email: 'otp@example.com', token: code },
    });
    expect(ok.status).toBe(200);
    const me = await runtime.request('GET', '/auth/me', { token: ok.body.access_token });
    expect(me.body.user.display_name).toBe('otp');
  });

  it('resends a confirmation within the per-address quota (429 with a clear message otherwise)', async () => {
    const call = authClient(runtime);
    const email = 'resend@example.com';
    await call('POST', '/auth/v1/signup', { body: { email, password: 'long enough', data: { display_name: 'R' } } });
    const tooSoon = await call('POST', '/auth/v1/resend', { body: { email, type: 'signup' } });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.code).toBe('over_email_send_rate_limit');
    expect(tooSoon.body.msg).toMatch(/only request this after \d+ seconds/);
    runtime.clock.advance(61_000);
    const ok = await call('POST', '/auth/v1/resend', { body: { email, type: 'signup' } });
    expect(ok.status).toBe(200);
    const badType = await call('POST', '/auth/v1/resend', { body: { email, type: 'recovery' } });
    expect(badType.status).toBe(400);
  });

  it('limits sign-ups per IP', async () => {
    const call = authClient(runtime);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      const res = await call('POST', '/auth/v1/signup', { body: { email: `many${i}@example.com`, password: 'x' } });
      last = res.status;
    }
    expect(last).toBe(429);
  });
});
