import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';
import { cardDetailsAt, saveCard } from './money-fixtures.ts';

const CONFIRM = '/api/payment/local/setup-intent/confirm';
const AUTHENTICATE = '/api/payment/local/setup-intent/authenticate';
const NO_CARD = 'Please add a payment method to put money on the line';
const NOW = '2026-11-18T17:00:00Z';
/** Expiry, CVC and postcode as the form sends them with a number. */
const DETAILS = cardDetailsAt(new Date(NOW));

// The web app's card flow against the local gateway, through HTTP only: setup intent, confirm, authenticate, list.
describe.each(databaseTargets())('saving a card with the local gateway on %s', (target) => {
  let rt: TestRuntime;
  let ann: TestUser;
  let ben: TestUser;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: NOW });
    ann = await createTestUser(rt, 'ann');
    ben = await createTestUser(rt, 'ben');
  }, 60_000);
  afterAll(() => rt?.close());

  const setupIntent = async (user: TestUser): Promise<string> => {
    const res = await rt.request('POST', '/api/payment/setup-intent', { token: user.token });
    expect(res.status).toBe(200);
    return res.body.clientSecret;
  };
  const confirm = (user: TestUser, client_secret: string, card_number: string) =>
    rt.request('POST', CONFIRM, { token: user.token, body: { client_secret, card_number, ...DETAILS } });
  const authenticate = (user: TestUser, client_secret: string, outcome: 'approve' | 'fail') =>
    rt.request('POST', AUTHENTICATE, { token: user.token, body: { client_secret, outcome } });
  const cards = async (user: TestUser) =>
    (await rt.request('GET', '/api/payment/payment-methods', { token: user.token })).body.paymentMethods as {
      id: string;
      last4: string;
    }[];
  const stakedGoal = (user: TestUser, paymentMethodId: string | null) =>
    rt.request('POST', '/goals', {
      token: user.token,
      body: {
        type: 'count',
        target_value: 2,
        stake_amount_cents: 1000,
        charity_id: 'givedirectly',
        payment_method_id: paymentMethodId,
        start: 'next_week',
      },
    });

  it('4242 is saved to the user’s customer, listed, and secures a staked goal', async () => {
    const res = await confirm(ann, await setupIntent(ann), '4242 4242 4242 4242');
    expect(res.status).toBe(200);
    expect(res.body.setupIntent).toMatchObject({ status: 'succeeded', next_action: null });
    const id = res.body.setupIntent.payment_method;
    expect(await cards(ann)).toMatchObject([{ id, brand: 'visa', last4: '4242' }]);
    const goal = await stakedGoal(ann, id);
    expect(goal.status).toBe(201);
    expect(goal.body.data).toMatchObject({ status: 'upcoming', stake_amount_cents: 1000 });
  });

  it('0002 is declined with Stripe’s message and code; nothing is saved and no goal can be staked with it', async () => {
    const secret = await setupIntent(ben);
    const res = await confirm(ben, secret, '4000 0000 0000 0002');
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: 'Your card was declined.',
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
    expect(await cards(ben)).toEqual([]);
    const goal = await stakedGoal(ben, 'pm_card_visa_chargeDeclined');
    expect([goal.status, goal.body.error]).toEqual([400, NO_CARD]);
    // The same form then takes a good card.
    const good = await confirm(ben, secret, '5555 5555 5555 4444');
    expect(good.body.setupIntent.status).toBe('succeeded');
    expect(await cards(ben)).toMatchObject([{ last4: '4444' }]);
  });

  it('3155 waits for authentication: failing it saves nothing (Stripe’s message), approving it saves the card', async () => {
    const user = await createTestUser(rt, 'cleo');
    const secret = await setupIntent(user);
    const waiting = await confirm(user, secret, '4000 0025 0000 3155');
    expect(waiting.status).toBe(200);
    expect(waiting.body.setupIntent).toMatchObject({
      status: 'requires_action',
      payment_method: null,
      next_action: { type: 'local_authentication' },
    });
    expect(await cards(user)).toEqual([]);
    const failed = await authenticate(user, secret, 'fail');
    expect(failed.status).toBe(402);
    expect(failed.body).toMatchObject({
      code: 'setup_intent_authentication_failure',
      error:
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    });
    expect(await cards(user)).toEqual([]);
    // Answering an authentication nobody asked for is a conflict, not a saved card.
    expect((await authenticate(user, secret, 'approve')).status).toBe(409);

    await confirm(user, secret, '4000002500003155');
    const approved = await authenticate(user, secret, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body.setupIntent.status).toBe('succeeded');
    expect(await cards(user)).toMatchObject([{ id: approved.body.setupIntent.payment_method, last4: '3155' }]);
  });

  it('9995 and 0341 save (they fail only when charged); an unknown (well-formed) number is refused as incorrect', async () => {
    const user = await createTestUser(rt, 'dee');
    expect((await confirm(user, await setupIntent(user), '4000 0000 0000 9995')).status).toBe(200);
    expect((await confirm(user, await setupIntent(user), '4000 0000 0000 0341')).status).toBe(200);
    // Luhn-valid, so it passes the form's checks and reaches the gateway, which knows no such test card.
    const wrong = await confirm(user, await setupIntent(user), '4111 1111 1111 1111');
    expect([wrong.status, wrong.body.error, wrong.body.code]).toEqual([
      402,
      'Your card number is incorrect.',
      'incorrect_number',
    ]);
    expect((await cards(user)).map((c) => c.last4).sort()).toEqual(['0341', '9995']);
  });

  it('another user’s SetupIntent reads as absent, and saves nothing for anyone', async () => {
    const annSecret = await setupIntent(ann);
    const before = await cards(ann);
    for (const res of [
      await confirm(ben, annSecret, '4242 4242 4242 4242'),
      await authenticate(ben, annSecret, 'approve'),
      await confirm(ben, 'seti_nope_secret_nope', '4242 4242 4242 4242'),
    ]) {
      expect([res.status, res.body.error]).toEqual([404, 'No such SetupIntent']);
    }
    expect(await cards(ann)).toEqual(before);
    expect(
      (
        await rt.request('POST', CONFIRM, {
          body: { client_secret: annSecret, card_number: '4242424242424242', ...DETAILS },
        })
      ).status,
    ).toBe(401);
  });

  it('answers bad bodies with a clear 400, never a 500, and saves nothing; the form then saves the good card', async () => {
    const secret = await setupIntent(ann);
    const before = await cards(ann);
    const good = { client_secret: secret, card_number: '4242 4242 4242 4242', ...DETAILS };
    const cases: [unknown, string][] = [
      [{ client_secret: secret }, 'Your card number is incomplete.'],
      [{ ...good, card_number: '4242' }, 'Your card number is incomplete.'],
      [{ ...good, card_number: 4242424242424242 }, 'Your card number is incomplete.'],
      [{ ...good, card_number: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
      [{ ...good, card_number: '4242 4242 4242 4242 4242' }, 'Your card number is invalid.'],
      [{ card_number: '4242424242424242' }, 'client_secret is required'],
      [{ ...good, expiry: undefined }, 'Your card’s expiration date is incomplete.'],
      [{ ...good, expiry: '12 / 3' }, 'Your card’s expiration date is incomplete.'],
      [{ ...good, expiry: '13 / 30' }, 'Your card’s expiration date is invalid.'],
      [{ ...good, expiry: '10 / 26' }, 'Your card’s expiration date is in the past.'],
      [{ ...good, expiry: '12 / 99' }, 'Your card’s expiration year is invalid.'],
      [{ ...good, cvc: '' }, 'Your card’s security code is incomplete.'],
      [{ ...good, cvc: '12' }, 'Your card’s security code is incomplete.'],
      [{ ...good, cvc: '12345' }, 'Your card’s security code is invalid.'],
      [{ ...good, cvc: 'abc' }, 'Your card’s security code is invalid.'],
      [{ ...good, postal_code: '   ' }, 'Your postcode is incomplete.'],
      [{ ...good, postal_code: undefined }, 'Your postcode is incomplete.'],
      [{ ...good, postal_code: 'x'.repeat(65) }, 'Your postcode is invalid.'],
      [{ ...good, postal_code: '<b>10001</b>' }, 'Your postcode is invalid.'],
    ];
    for (const [body, error] of cases) {
      const res = await rt.request('POST', CONFIRM, { token: ann.token, body });
      expect([res.status, res.body.error]).toEqual([400, error]);
    }
    const notJson = await rt.request('POST', CONFIRM, { token: ann.token, body: '{"client_secret":' });
    expect([notJson.status, notJson.body.error]).toEqual([400, 'Request body must be valid JSON']);
    const outcome = await rt.request('POST', AUTHENTICATE, {
      token: ann.token,
      body: { client_secret: secret, outcome: 'maybe' },
    });
    expect([outcome.status, outcome.body.error]).toEqual([400, 'outcome must be approve or fail']);
    expect(await cards(ann)).toEqual(before);
    const saved = await rt.request('POST', CONFIRM, { token: ann.token, body: { ...good, expiry: '11 / 26' } });
    expect([saved.status, saved.body.setupIntent?.status]).toEqual([200, 'succeeded']);
    expect(await cards(ann)).toHaveLength(before.length + 1);
  });

  it('a burst of confirmations of one form saves one card', async () => {
    const user = await createTestUser(rt, 'eve');
    const secret = await setupIntent(user);
    const answers = await Promise.all(Array.from({ length: 6 }, () => confirm(user, secret, '4242 4242 4242 4242')));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.setupIntent.payment_method)).size).toBe(1);
    expect(await cards(user)).toHaveLength(1);
  });

  it('removes a saved card for its owner only; the wizard then has no card to offer', async () => {
    const user = await createTestUser(rt, 'fay');
    const id = await saveCard(rt, user, 'pm_card_visa');
    expect((await rt.request('DELETE', `/api/payment/payment-methods/${id}`, { token: ben.token })).status).toBe(404);
    expect(await cards(user)).toHaveLength(1);
    const removed = await rt.request('DELETE', `/api/payment/payment-methods/${id}`, { token: user.token });
    expect([removed.status, removed.body.data]).toEqual([200, { id, deleted: true }]);
    expect(await cards(user)).toEqual([]);
    expect((await rt.request('DELETE', `/api/payment/payment-methods/${id}`, { token: user.token })).status).toBe(404);
    expect((await stakedGoal(user, id)).body.error).toBe(NO_CARD);
  });
});

describe('the local gateway in production', () => {
  it('does not exist: no card can be saved without a real processor', async () => {
    const rt = await startTestRuntime('pglite', {
      workers: false,
      config: { NODE_ENV: 'production', AUTH_ENCRYPTION_KEY: 'p'.repeat(32) },
    });
    try {
      expect(rt.payments).toBeNull();
      for (const path of [CONFIRM, AUTHENTICATE]) {
        const res = await rt.request('POST', path, {
          body: { client_secret: 'seti_x_secret_y', card_number: '4242424242424242' },
        });
        expect([res.status, res.body.error]).toEqual([404, 'Not found']);
      }
      const config = await rt.request('GET', '/api/payment/config');
      expect(config.body).toEqual({ publishableKey: null, gateway: null });
    } finally {
      await rt.close();
    }
  }, 60_000);
});
