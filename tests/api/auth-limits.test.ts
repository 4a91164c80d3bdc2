import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_LIMITS } from '../../app-server/auth/rate-limiter.ts';
import type { AuthTables, OneTimeTokenRow } from '../../app-server/auth/tables.ts';
import { type TestRuntime, databaseTargets, startTestRuntime } from '../support/test-runtime.ts';
import { authClient, freshIp, lastCode, lastMail, signedInUser } from './auth-helpers.ts';

/** `count` six-digit codes, none equal to `right`. */
function wrongCodes(right: string, count: number): string[] {
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n++) {
    const code = String((Number(right) + 1 + n * 7919) % 1_000_000).padStart(6, '0');
    if (code !== right) codes.push(code);
  }
  return codes;
}

/** One client per source address, `count` of them (X-Forwarded-For, trusted by these tests' config). */
function manyAddresses(runtime: TestRuntime, count: number) {
  return Array.from({ length: count }, () => authClient(runtime, freshIp()));
}

describe.each(databaseTargets())('auth limits under parallel attack (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { config: { AUTH_TRUST_PROXY: true } });
  });
  const db = () => runtime.database.db.withTables<AuthTables>();
  afterAll(async () => runtime?.close());

  const counters = (prefix: string) =>
    db().selectFrom('auth_rate_limits').select(['key', 'count']).where('key', 'like', `${prefix}%`).execute();

  const tokenAttempts = async (userId: string, kind: OneTimeTokenRow['kind']) =>
    (
      await db()
        .selectFrom('auth_one_time_tokens')
        .select('attempts')
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).attempts;

  it('takes at most `max` slots of a limit however many requests race for it', async () => {
    const limit = { max: 7, windowSeconds: 60 };
    const verdicts = await Promise.all(Array.from({ length: 300 }, () => runtime.auth.limiter.hit('race:test', limit)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(7);
    expect(verdicts.filter((v) => !v.allowed).every((v) => v.retryAfter > 0 && v.retryAfter <= 60)).toBe(true);
    expect(await counters('race:test')).toEqual([{ key: 'race:test', count: 7 }]);
    // A released slot can be taken again, once; a new window starts from one.
    await runtime.auth.limiter.release('race:test', verdicts.find((v) => v.allowed)!);
    const again = await Promise.all(Array.from({ length: 20 }, () => runtime.auth.limiter.hit('race:test', limit)));
    expect(again.filter((v) => v.allowed)).toHaveLength(1);
    runtime.clock.advance(61_000);
    expect((await runtime.auth.limiter.hit('race:test', limit)).allowed).toBe(true);
    expect(await counters('race:test')).toEqual([{ key: 'race:test', count: 1 }]);
  });

  it('refuses the right recovery code sent last after 1,000 parallel wrong ones from 100 addresses; the link still works', async () => {
    const owner = await signedInUser(runtime, 'recovery-target');
    // A recovery right after the sign-up mail: quotas are per kind of mail, so it is not refused.
    const asked = await owner.call('POST', '/auth/v1/recover', { body: { email: owner.email } });
    expect(asked.status).toBe(200);
    const mail = await lastMail(runtime, owner.email);
    expect(mail.subject).toBe('Reset your StrideStake password');
    const right = await lastCode(runtime, owner.email);
    const attackers = manyAddresses(runtime, 100);
    const guess = (i: number, token: string) =>
      attackers[i % attackers.length]!('POST', '/auth/v1/verify', {
        body: { type: 'recovery', email: owner.email, token },
      });
    const answers = await Promise.all([...wrongCodes(right, 1000).map((code, i) => guess(i, code)), guess(7, right)]);

    const last = answers.at(-1)!;
    expect({ status: last.status, code: last.body.code }).toEqual({ status: 403, code: 'otp_expired' });
    expect(answers.every((a) => a.status === 403 && a.body.code === 'otp_expired')).toBe(true);
    // Five checks at most, whatever the concurrency; the code is burnt for good.
    expect(await tokenAttempts(owner.session.user.id, 'recovery')).toBe(5);
    expect((await guess(3, right)).status).toBe(403);
    for (const { count } of await counters('verify:ip:')) {
      expect(count).toBeLessThanOrEqual(AUTH_LIMITS.verifyFailuresPerIp.max);
    }
    // The owner is not locked out: the link in the same mail (unguessable) still opens a recovery session.
    const link = new URL(mail.links[0]!);
    const opened = await runtime.request('GET', link.pathname + link.search);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toContain('#access_token=');
  });

  it('refuses the right passwordless OTP code sent last after 1,000 parallel wrong ones from 100 addresses', async () => {
    const owner = await signedInUser(runtime, 'otp-target');
    expect((await owner.call('POST', '/auth/v1/otp', { body: { email: owner.email } })).status).toBe(200);
    const right = await lastCode(runtime, owner.email);
    const attackers = manyAddresses(runtime, 100);
    const guess = (i: number, token: string) =>
      attackers[i % attackers.length]!('POST', '/auth/v1/verify', {
        body: { type: 'email', email: owner.email, token },
      });
    const answers = await Promise.all([...wrongCodes(right, 1000).map((code, i) => guess(i, code)), guess(11, right)]);

    expect(answers.filter((a) => a.status === 200)).toEqual([]);
    expect(answers.at(-1)!.body.code).toBe('otp_expired');
    expect(await tokenAttempts(owner.session.user.id, 'magiclink')).toBe(5);
    expect(
      (await owner.call('POST', '/auth/v1/verify', { body: { type: 'email', email: owner.email, token: right } }))
        .status,
    ).toBe(403);
  });

  it('counts a code attempt before checking it: five sequential tries, the right one included, then the code is burnt', async () => {
    const owner = await signedInUser(runtime, 'sequential');
    await owner.call('POST', '/auth/v1/otp', { body: { email: owner.email } });
    const right = await lastCode(runtime, owner.email);
    const verify = (token: string) =>
      owner.call('POST', '/auth/v1/verify', { body: { type: 'magiclink', email: owner.email, token } });
    for (const code of wrongCodes(right, 4)) expect((await verify(code)).status).toBe(403);
    expect((await verify(right)).status).toBe(200);
    expect(await tokenAttempts(owner.session.user.id, 'magiclink')).toBe(5);
  });

  it('refuses the right password after 100 parallel wrong ones from 100 addresses; the owner still gets in', async () => {
    const owner = await signedInUser(runtime, 'password-target');
    const verify = vi.spyOn(runtime.auth.hasher, 'verify');
    try {
      const attackers = manyAddresses(runtime, 101);
      const signIn = (i: number, password: string) =>
        attackers[i]!('POST', '/auth/v1/token?grant_type=password', { body: { email: owner.email, password } });
      const answers = await Promise.all([
        ...Array.from({ length: 100 }, (_, i) => signIn(i, `wrong guess ${i}`)),
        signIn(100, owner.password),
      ]);
      const max = AUTH_LIMITS.signInFailuresPerAccountFromNewAddresses.max;
      expect(answers.filter((a) => a.status === 400 && a.body.code === 'invalid_credentials')).toHaveLength(max);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(101 - max);
      expect(answers.at(-1)!.status).toBe(429);
      expect(answers.at(-1)!.body.msg).toMatch(/^Too many sign-in attempts\. Please wait \d+ seconds and try again\.$/);
      // Only the allowed guesses ever reached Argon2, and no counter went past its limit.
      expect(verify).toHaveBeenCalledTimes(max);
      expect(await counters(`signin:account:${owner.email}`)).toEqual([
        { key: `signin:account:${owner.email}`, count: max },
      ]);
      // Later, from yet another new address, still refused.
      const later = await authClient(runtime)('POST', '/auth/v1/token?grant_type=password', {
        body: { email: owner.email, password: owner.password },
      });
      expect(later.status).toBe(429);
    } finally {
      verify.mockRestore();
    }

    // The owner from the address they signed in from before is neither counted nor refused.
    const usual = await owner.call('POST', '/auth/v1/token?grant_type=password', {
      body: { email: owner.email, password: owner.password },
    });
    expect(usual.status).toBe(200);

    // From a new device the owner recovers by mail, sets a new password, and that address now works too.
    const device = authClient(runtime);
    expect((await device('POST', '/auth/v1/recover', { body: { email: owner.email } })).status).toBe(200);
    const link = new URL((await lastMail(runtime, owner.email)).links[0]!);
    const opened = await device('GET', link.pathname + link.search);
    const access = new URLSearchParams(opened.headers.get('location')!.split('#')[1]).get('access_token')!;
    const changed = await device('PUT', '/auth/v1/user', { token: access, body: { password: 'a fresh long secret' } });
    expect(changed.status).toBe(200);
    const fromDevice = await device('POST', '/auth/v1/token?grant_type=password', {
      body: { email: owner.email, password: 'a fresh long secret' },
    });
    expect(fromDevice.status).toBe(200);
  });

  it('refuses the right TOTP code after parallel wrong ones: five checks at most per user', async () => {
    const { call, session } = await signedInUser(runtime, 'totp-target');
    const token = session.access_token;
    const factor = await call('POST', '/auth/v1/factors', { token, body: { factor_type: 'totp' } });
    const totp = new TOTP({ secret: Secret.fromBase32(factor.body.totp.secret), digits: 6, period: 30 });
    const right = totp.generate({ timestamp: runtime.clock.now().getTime() });
    const challenge = await call('POST', `/auth/v1/factors/${factor.body.id}/challenge`, { token });
    const wrong = [-1, 0, 1].map((d) => totp.generate({ timestamp: runtime.clock.now().getTime() + d * 30_000 }));
    const verify = (code: string) =>
      call('POST', `/auth/v1/factors/${factor.body.id}/verify`, {
        token,
        body: { challenge_id: challenge.body.id, code },
      });
    const guesses = wrongCodes(right, 200).filter((code) => !wrong.includes(code));
    const answers = await Promise.all([...guesses.map(verify), verify(right)]);
    expect(answers.filter((a) => a.body.code === 'mfa_verification_failed')).toHaveLength(
      AUTH_LIMITS.mfaFailuresPerUser.max,
    );
    expect(answers.at(-1)!.status).toBe(429);
    expect(await counters(`mfa:user:${session.user.id}`)).toEqual([
      { key: `mfa:user:${session.user.id}`, count: AUTH_LIMITS.mfaFailuresPerUser.max },
    ]);
  });

  it('lets exactly ten of thirty parallel sign-ups from one address through', async () => {
    const call = authClient(runtime);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('POST', '/auth/v1/signup', { body: { email: `burst${i}@example.com`, password: 'long enough' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(AUTH_LIMITS.signUpsPerIp.max);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30 - AUTH_LIMITS.signUpsPerIp.max);
  });

  it('counts mails per kind: one a minute of each kind per address, for known and unknown addresses alike', async () => {
    const owner = await signedInUser(runtime, 'quota');
    for (const email of [owner.email, 'stranger@example.com']) {
      const call = authClient(runtime);
      expect((await call('POST', '/auth/v1/recover', { body: { email } })).status).toBe(200);
      expect((await call('POST', '/auth/v1/otp', { body: { email, create_user: false } })).status).toBe(200);
      const again = await call('POST', '/auth/v1/recover', { body: { email } });
      expect({ status: again.status, code: again.body.code }).toEqual({
        status: 429,
        code: 'over_email_send_rate_limit',
      });
    }
    runtime.clock.advance(61_000);
    expect((await owner.call('POST', '/auth/v1/recover', { body: { email: owner.email } })).status).toBe(200);
  });
});
