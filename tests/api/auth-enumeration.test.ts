import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestRuntime, databaseTargets, startTestRuntime } from '../support/test-runtime.ts';
import { authClient, freshIp, lastMail, signedInUser } from './auth-helpers.ts';

/** The shape of a JSON value: its keys and value types, recursively (values themselves differ between users). */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  }
  return typeof value;
}

describe.each(databaseTargets())('no account enumeration (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { config: { AUTH_TRUST_PROXY: true } });
  });
  afterAll(async () => runtime?.close());

  const mailCount = async (to: string) =>
    (await runtime.request('GET', `/dev/mail?to=${encodeURIComponent(to)}`)).body.mail.length as number;

  /** A confirmed account and an unconfirmed one, their sign-up mails a minute old (the mail quota is free again). */
  async function knownAccounts() {
    const confirmed = await signedInUser(runtime, 'known');
    const unconfirmed = `pending-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await authClient(runtime)('POST', '/auth/v1/signup', {
      body: { email: unconfirmed, password: 'long enough', data: { display_name: 'Pending' } },
    });
    runtime.clock.advance(61_000);
    return { confirmed: confirmed.email, unconfirmed };
  }

  it('answers a sign-up for a taken address exactly like a new one, and mails the owner instead', async () => {
    const { confirmed, unconfirmed } = await knownAccounts();
    const body = (email: string) => ({ email, password: 'another long one', data: { display_name: 'Mallory' } });
    const fresh = await authClient(runtime)('POST', '/auth/v1/signup', { body: body('brand-new@example.com') });
    const takenConfirmed = await authClient(runtime)('POST', '/auth/v1/signup', { body: body(confirmed) });
    const takenPending = await authClient(runtime)('POST', '/auth/v1/signup', { body: body(unconfirmed) });

    for (const res of [fresh, takenConfirmed, takenPending]) {
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(fresh.body));
      expect(res.body.identities).toHaveLength(1);
      expect(res.body.user_metadata.display_name).toBe('Mallory');
      expect(res.body.email_confirmed_at).toBeUndefined();
    }
    expect(takenConfirmed.body.id).not.toBe(fresh.body.id);
    // The owner of the confirmed account is told; the unconfirmed one gets a new confirmation.
    expect((await lastMail(runtime, confirmed)).subject).toBe('Your StrideStake account already exists');
    expect((await lastMail(runtime, unconfirmed)).subject).toBe('Confirm your StrideStake account');
    // The attempt changed nothing: the owner's password still works, Mallory's does not.
    const owner = await authClient(runtime)('POST', '/auth/v1/token?grant_type=password', {
      body: { email: confirmed, password: 'another long one' },
    });
    expect(owner.body.code).toBe('invalid_credentials');
  });

  it('answers recovery, OTP (create_user false too) and resend alike for known and unknown addresses', async () => {
    const { confirmed, unconfirmed } = await knownAccounts();
    const unknown = `nobody-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const requests: [string, (email: string) => unknown][] = [
      ['/auth/v1/recover', (email) => ({ email })],
      ['/auth/v1/otp', (email) => ({ email, create_user: false })],
      ['/auth/v1/resend', (email) => ({ email, type: 'signup' })],
    ];
    for (const [path, body] of requests) {
      const answers = [];
      for (const email of [confirmed, unconfirmed, unknown]) {
        const before = await mailCount(email);
        const res = await authClient(runtime)('POST', path, { body: body(email) });
        answers.push({ status: res.status, body: res.body });
        // Exactly one mail either way: the link asked for, or a notice that there was nothing to send.
        expect(await mailCount(email)).toBe(before + 1);
      }
      expect(answers).toEqual([
        { status: 200, body: {} },
        { status: 200, body: {} },
        { status: 200, body: {} },
      ]);
      runtime.clock.advance(61_000);
    }
    // OTP with create_user false never creates the account.
    const created = await runtime.database.db
      .withTables<{ auth_users: { email: string } }>()
      .selectFrom('auth_users')
      .select('email')
      .where('email', '=', unknown)
      .execute();
    expect(created).toEqual([]);
    // The same limit applies to both: a second request within the minute is refused for either.
    for (const email of [confirmed, unknown]) {
      const call = authClient(runtime);
      await call('POST', '/auth/v1/recover', { body: { email } });
      const again = await call('POST', '/auth/v1/recover', { body: { email } });
      expect({ status: again.status, code: again.body.code }).toEqual({
        status: 429,
        code: 'over_email_send_rate_limit',
      });
    }
    runtime.clock.advance(61_000);
  });

  it('does the same work for known and unknown addresses: hashing, rate limits and one mail', async () => {
    const { confirmed } = await knownAccounts();
    const auth = runtime.auth;
    const spies = {
      hash: vi.spyOn(auth.hasher, 'hash'),
      verify: vi.spyOn(auth.hasher, 'verify'),
      send: vi.spyOn(auth.mailer, 'send'),
      hit: vi.spyOn(auth.limiter, 'hit'),
      release: vi.spyOn(auth.limiter, 'release'),
    };
    /** The operations one request performed, in order, with its address and e-mail written generically. */
    async function operations(email: string, request: (call: ReturnType<typeof authClient>) => Promise<unknown>) {
      for (const spy of Object.values(spies)) spy.mockClear();
      const ip = freshIp();
      await request(authClient(runtime, ip));
      const calls = Object.entries(spies).flatMap(([name, spy]) =>
        spy.mock.calls.map((args, i) => ({ order: spy.mock.invocationCallOrder[i]!, name, args })),
      );
      // Rate-limit keys are shown with the address and e-mail made generic; hashing and mail by name only (the
      // hash checked differs by nature: the account's, or the dummy one for an unknown address).
      const key = (args: unknown[]) =>
        typeof args[0] === 'string' ? args[0].replaceAll(email, '<email>').replaceAll(ip, '<ip>') : '';
      return calls
        .sort((a, b) => a.order - b.order)
        .map((c) => (c.name === 'hit' || c.name === 'release' ? `${c.name}(${key(c.args)})` : `${c.name}()`));
    }
    try {
      const flows: [string, (email: string) => (call: ReturnType<typeof authClient>) => Promise<unknown>][] = [
        [
          'sign-up',
          (email) => (call) =>
            call('POST', '/auth/v1/signup', { body: { email, password: 'long enough', data: { display_name: 'X' } } }),
        ],
        [
          'sign-in',
          (email) => (call) =>
            call('POST', '/auth/v1/token?grant_type=password', { body: { email, password: 'not the password' } }),
        ],
        ['recover', (email) => (call) => call('POST', '/auth/v1/recover', { body: { email } })],
        ['otp', (email) => (call) => call('POST', '/auth/v1/otp', { body: { email, create_user: false } })],
        ['resend', (email) => (call) => call('POST', '/auth/v1/resend', { body: { email, type: 'signup' } })],
      ];
      for (const [name, flow] of flows) {
        const unknown = `unknown-${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;
        const known = await operations(confirmed, flow(confirmed));
        const other = await operations(unknown, flow(unknown));
        expect({ name, operations: other }).toEqual({ name, operations: known });
        expect(known.filter((op) => op.startsWith('hash(') || op.startsWith('verify(')).length).toBe(
          name === 'sign-up' || name === 'sign-in' ? 1 : 0,
        );
        expect(known.filter((op) => op.startsWith('send(')).length).toBe(name === 'sign-in' ? 0 : 1);
        runtime.clock.advance(61_000);
      }
    } finally {
      for (const spy of Object.values(spies)) spy.mockRestore();
    }
  });
});
