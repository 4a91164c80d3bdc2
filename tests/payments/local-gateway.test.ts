import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalPaymentGateway } from '../../app-server/adapters/payments/local/local-gateway.ts';
import { PaymentGatewayError, WebhookSignatureError } from '../../app-server/adapters/payments/payment-errors.ts';
import { ManualClock } from '../../app-server/clock.ts';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import { migrateToLatest } from '../../app-server/db/migrate.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

type Target = 'pglite' | 'postgres';
const targets: Target[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const HOUR = 3_600_000;
const START = '2026-11-23T05:00:00.000Z'; // Monday 00:00 in New York
const SECRET = 'whsec_local_test';

async function failure(promise: Promise<unknown>): Promise<PaymentGatewayError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentGatewayError);
  return error as PaymentGatewayError;
}

describe.each(targets)('local payment gateway on %s', (target) => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  const clock = new ManualClock(START);
  let gateway: LocalPaymentGateway;

  beforeAll(async () => {
    if (target === 'postgres') {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'ss_payments');
      drop = scratch.drop;
      database = await openDatabase({ databaseUrl: scratch.url });
    } else {
      database = await openMemoryDatabase();
    }
    await migrateToLatest(database.db);
    gateway = new LocalPaymentGateway({ db: database.db, clock, webhookSecret: SECRET });
  });
  afterAll(async () => {
    await database.close();
    await drop?.();
  });
  beforeEach(() => clock.set(START));

  /**
   * A runner with a saved card, saved the way the browser does it (SetupIntent confirmed with a test card, its
   * authentication approved when the card asks for it).
   */
  async function runnerWithCard(card = '4242 4242 4242 4242') {
    const { customerId } = await gateway.ensureCustomer({ userId: `user-${randomUUID()}`, email: 'r@example.com' });
    const { setupIntentId, clientSecret } = await gateway.createSetupIntent({ customerId });
    expect(clientSecret).toMatch(new RegExp(`^${setupIntentId}_secret_`));
    let setup = await gateway.confirmSetupIntent({ setupIntentId, card });
    if (setup.status === 'requires_action')
      setup = await gateway.authenticateSetupIntent({ setupIntentId, approve: true });
    if (setup.paymentMethodId === null) throw new Error(`not saved: ${setup.lastSetupError?.message}`);
    return { customerId, paymentMethodId: setup.paymentMethodId };
  }
  const key = (name: string) => `${name}-${randomUUID()}`;
  const hold = (who: { customerId: string; paymentMethodId: string }, amountCents = 2000) => ({
    ...who,
    amountCents,
    idempotencyKey: key('hold'),
    metadata: { stake_id: 's1' },
  });
  const paymentIntentRows = async (customerId: string) =>
    (
      await sql<{
        id: string;
      }>`SELECT id FROM payments_local_payment_intents WHERE customer_id = ${customerId}`.execute(database.db)
    ).rows;

  it('one customer per user, whatever the number of calls', async () => {
    const userId = `user-${randomUUID()}`;
    const [a, b] = await Promise.all([
      gateway.ensureCustomer({ userId, email: 'a@example.com' }),
      gateway.ensureCustomer({ userId, email: 'a@example.com' }),
    ]);
    expect(a).toEqual(b);
    expect(
      (await gateway.ensureCustomer({ userId: `user-${randomUUID()}`, email: 'b@example.com' })).customerId,
    ).not.toBe(a.customerId);
  });

  it('saves cards, lists them, refuses to detach another customer’s card and detaches one’s own', async () => {
    const alice = await runnerWithCard('pm_card_mastercard');
    const bob = await runnerWithCard();
    expect(await gateway.listPaymentMethods({ customerId: alice.customerId })).toEqual([
      { id: alice.paymentMethodId, brand: 'mastercard', last4: '4444', expMonth: 12, expYear: 2029 },
    ]);

    const refused = await failure(
      gateway.detachPaymentMethod({ customerId: bob.customerId, paymentMethodId: alice.paymentMethodId }),
    );
    expect(refused.code).toBe('not_owned');
    expect(await gateway.listPaymentMethods({ customerId: alice.customerId })).toHaveLength(1);

    await gateway.detachPaymentMethod({ customerId: alice.customerId, paymentMethodId: alice.paymentMethodId });
    expect(await gateway.listPaymentMethods({ customerId: alice.customerId })).toEqual([]);
    // A detached card can no longer be held by anyone.
    expect((await failure(gateway.placeHold(hold(alice)))).code).toBe('invalid_request');
    expect((await failure(gateway.placeHold(hold({ ...bob, paymentMethodId: alice.paymentMethodId })))).code).toBe(
      'invalid_request',
    );
  });

  it('saves cards as Stripe test mode does: 0002 and unknown numbers are refused and save nothing', async () => {
    const { customerId } = await gateway.ensureCustomer({ userId: `user-${randomUUID()}`, email: 's@example.com' });
    const { setupIntentId } = await gateway.createSetupIntent({ customerId });
    expect(await gateway.confirmSetupIntent({ setupIntentId, card: '4000 0000 0000 0002' })).toMatchObject({
      status: 'requires_payment_method',
      paymentMethodId: null,
      lastSetupError: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
    });
    expect(await gateway.confirmSetupIntent({ setupIntentId, card: '4111 1111 1111 1112' })).toMatchObject({
      status: 'requires_payment_method',
      lastSetupError: { code: 'incorrect_number', message: 'Your card number is incorrect.' },
    });
    expect(await gateway.listPaymentMethods({ customerId })).toEqual([]);
    // The same SetupIntent then takes a good card, once however often it is confirmed.
    const saved = await gateway.confirmSetupIntent({ setupIntentId, card: '4000 0000 0000 9995' });
    expect(saved).toMatchObject({ status: 'succeeded', lastSetupError: null });
    expect(await gateway.confirmSetupIntent({ setupIntentId, card: '4242424242424242' })).toEqual(saved);
    expect(await gateway.listPaymentMethods({ customerId })).toMatchObject([
      { id: saved.paymentMethodId, last4: '9995' },
    ]);
  });

  it('a card whose issuer asks for authentication is saved only once the cardholder approves', async () => {
    const { customerId } = await gateway.ensureCustomer({ userId: `user-${randomUUID()}`, email: 'a@example.com' });
    const { setupIntentId } = await gateway.createSetupIntent({ customerId });
    const waiting = await gateway.confirmSetupIntent({ setupIntentId, card: '4000 0025 0000 3155' });
    expect(waiting).toMatchObject({ status: 'requires_action', paymentMethodId: null });
    expect(await gateway.listPaymentMethods({ customerId })).toEqual([]);
    expect(await gateway.authenticateSetupIntent({ setupIntentId, approve: false })).toMatchObject({
      status: 'requires_payment_method',
      lastSetupError: { code: 'setup_intent_authentication_failure' },
    });
    expect(await gateway.listPaymentMethods({ customerId })).toEqual([]);
    // Not waiting any more: answering again is a mistake of the caller, not a second chance.
    expect((await failure(gateway.authenticateSetupIntent({ setupIntentId, approve: true }))).code).toBe(
      'invalid_request',
    );
    await gateway.confirmSetupIntent({ setupIntentId, card: '4000002500003155' });
    const approved = await gateway.authenticateSetupIntent({ setupIntentId, approve: true });
    expect(approved).toMatchObject({ status: 'succeeded', lastSetupError: null });
    // Set up for off-session use, 3155 then pays without asking again (Stripe's test-mode rule for this card).
    const held = await gateway.placeHold(hold({ customerId, paymentMethodId: approved.paymentMethodId! }));
    expect(held.status).toBe('held');
  });

  it('concurrent confirmations of one SetupIntent save one card', async () => {
    const { customerId } = await gateway.ensureCustomer({ userId: `user-${randomUUID()}`, email: 'c@example.com' });
    const { setupIntentId } = await gateway.createSetupIntent({ customerId });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => gateway.confirmSetupIntent({ setupIntentId, card: '4242 4242 4242 4242' })),
    );
    expect(new Set(answers.map((a) => a.paymentMethodId)).size).toBe(1);
    expect(await gateway.listPaymentMethods({ customerId })).toHaveLength(1);
  });

  it('places a hold (4 d 18 h for an off-session Visa) and releases it; releasing twice is still released', async () => {
    const runner = await runnerWithCard();
    const held = await gateway.placeHold(hold(runner));
    expect(held).toMatchObject({ status: 'held', amountCents: 2000 });
    if (held.status !== 'held') throw new Error('not held');
    expect(Date.parse(held.captureBefore) - Date.parse(START)).toBe((4 * 24 + 18) * HOUR);

    expect(await gateway.retrievePaymentIntent(held.paymentIntentId)).toEqual({
      id: held.paymentIntentId,
      status: 'requires_capture',
      amountCents: 2000,
      amountCapturableCents: 2000,
      amountCapturedCents: 0,
      captureBefore: held.captureBefore,
      customerId: runner.customerId,
      metadata: { stake_id: 's1' },
    });

    const release = { paymentIntentId: held.paymentIntentId, idempotencyKey: key('release') };
    expect(await gateway.releaseHold(release)).toEqual({ status: 'released', paymentIntentId: held.paymentIntentId });
    expect(await gateway.releaseHold({ ...release, idempotencyKey: key('release') })).toEqual({
      status: 'released',
      paymentIntentId: held.paymentIntentId,
    });
    expect(await gateway.retrievePaymentIntent(held.paymentIntentId)).toMatchObject({
      status: 'canceled',
      amountCapturableCents: 0,
    });
    expect(await gateway.captureHold({ ...release, amountCents: 2000, idempotencyKey: key('capture') })).toEqual({
      status: 'expired',
      paymentIntentId: held.paymentIntentId,
    });
  });

  it('hold windows: 7 days for Mastercard, and for Visa when the runner is present', async () => {
    const mastercard = await gateway.placeHold(hold(await runnerWithCard('5555555555554444')));
    const visaPresent = await gateway.placeHold({ ...hold(await runnerWithCard()), customerPresent: true });
    for (const result of [mastercard, visaPresent]) {
      if (result.status !== 'held') throw new Error(`not held: ${result.status}`);
      expect(Date.parse(result.captureBefore) - Date.parse(START)).toBe(7 * 24 * HOUR);
    }
  });

  it('captures part of a hold (the rest is released), then reports it as already captured', async () => {
    const runner = await runnerWithCard();
    const held = await gateway.placeHold(hold(runner));
    if (held.status !== 'held') throw new Error('not held');
    clock.advance(72 * HOUR);
    const capture = { paymentIntentId: held.paymentIntentId, amountCents: 1600, idempotencyKey: key('capture') };
    expect(await gateway.captureHold(capture)).toEqual({
      status: 'captured',
      paymentIntentId: held.paymentIntentId,
      amountCapturedCents: 1600,
    });
    expect(await gateway.retrievePaymentIntent(held.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      amountCapturedCents: 1600,
      amountCapturableCents: 0,
    });
    expect(await gateway.captureHold({ ...capture, idempotencyKey: key('capture') })).toEqual({
      status: 'already_captured',
      paymentIntentId: held.paymentIntentId,
      amountCapturedCents: 1600,
    });
    expect(await gateway.releaseHold({ paymentIntentId: held.paymentIntentId, idempotencyKey: key('r') })).toEqual({
      status: 'already_captured',
      paymentIntentId: held.paymentIntentId,
      amountCapturedCents: 1600,
    });
  });

  it('refunds what was taken, once per key, never more than is left; a hold not captured has nothing to refund', async () => {
    const held = await gateway.placeHold(hold(await runnerWithCard(), 2000));
    if (held.status !== 'held') throw new Error('not held');
    const refund = {
      paymentIntentId: held.paymentIntentId,
      amountCents: 2000,
      idempotencyKey: key('refund'),
      metadata: {},
    };
    expect((await failure(gateway.refundPayment(refund))).code).toBe('invalid_request');
    await gateway.captureHold({ paymentIntentId: held.paymentIntentId, amountCents: 2000, idempotencyKey: key('c') });
    const once = key('refund-2');
    const first = await gateway.refundPayment({ ...refund, idempotencyKey: once });
    expect(first).toMatchObject({ status: 'refunded', amountCents: 2000 });
    // The same key replays the first answer: one refund, not two.
    expect(await gateway.refundPayment({ ...refund, idempotencyKey: once })).toEqual(first);
    const again = await failure(gateway.refundPayment({ ...refund, amountCents: 1, idempotencyKey: key('refund-3') }));
    expect(again.providerCode).toBe('charge_already_refunded');
  });

  it('captures a whole hold, and never more than was held', async () => {
    const held = await gateway.placeHold(hold(await runnerWithCard(), 5000));
    if (held.status !== 'held') throw new Error('not held');
    const tooMuch = await failure(
      gateway.captureHold({ paymentIntentId: held.paymentIntentId, amountCents: 5001, idempotencyKey: key('c') }),
    );
    expect(tooMuch.code).toBe('invalid_request');
    expect(
      await gateway.captureHold({ paymentIntentId: held.paymentIntentId, amountCents: 5000, idempotencyKey: key('c') }),
    ).toMatchObject({ status: 'captured', amountCapturedCents: 5000 });
  });

  it('a hold past capture_before cannot be captured; the miss is charged off-session: succeeded, declined or authentication', async () => {
    const runner = await runnerWithCard();
    const held = await gateway.placeHold(hold(runner));
    if (held.status !== 'held') throw new Error('not held');

    clock.set(new Date(Date.parse(held.captureBefore) - 1));
    expect(await gateway.retrievePaymentIntent(held.paymentIntentId)).toMatchObject({ status: 'requires_capture' });
    clock.set(held.captureBefore);
    expect(
      await gateway.captureHold({ paymentIntentId: held.paymentIntentId, amountCents: 2000, idempotencyKey: key('c') }),
    ).toEqual({ status: 'expired', paymentIntentId: held.paymentIntentId });
    expect(await gateway.retrievePaymentIntent(held.paymentIntentId)).toMatchObject({
      status: 'canceled',
      amountCapturedCents: 0,
    });

    const charge = { ...runner, amountCents: 2000, metadata: { stake_id: 's1' } };
    const paid = await gateway.chargeOffSession({ ...charge, idempotencyKey: key('charge-1') });
    expect(paid).toMatchObject({ status: 'succeeded', amountCents: 2000 });
    if (paid.status !== 'succeeded') throw new Error('not paid');
    expect(await gateway.retrievePaymentIntent(paid.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      amountCapturedCents: 2000,
      captureBefore: null,
    });

    await gateway.setCardBehaviour(runner.paymentMethodId, 'insufficient_funds');
    expect(await gateway.chargeOffSession({ ...charge, idempotencyKey: key('charge-2') })).toMatchObject({
      status: 'declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    await gateway.setCardBehaviour(runner.paymentMethodId, 'authentication_required');
    const auth = await gateway.chargeOffSession({ ...charge, idempotencyKey: key('charge-3') });
    expect(auth).toMatchObject({ status: 'authentication_required' });
    if (auth.status !== 'authentication_required') throw new Error('no authentication');
    expect(await gateway.retrievePaymentIntent(auth.paymentIntentId)).toMatchObject({
      status: 'requires_payment_method',
    });
  });

  it('declining and authenticating test cards refuse the hold; the declined PaymentIntent remains', async () => {
    const declined = await gateway.placeHold(hold(await runnerWithCard('4000000000000341')));
    expect(declined).toMatchObject({ status: 'declined', declineCode: 'generic_decline' });
    if (declined.status !== 'declined' || !declined.paymentIntentId) throw new Error('not declined');
    expect(await gateway.retrievePaymentIntent(declined.paymentIntentId)).toMatchObject({
      status: 'requires_payment_method',
    });
    expect(
      await gateway.placeHold(hold(await runnerWithCard('pm_card_visa_chargeDeclinedInsufficientFunds'))),
    ).toMatchObject({
      status: 'declined',
      declineCode: 'insufficient_funds',
    });

    const threeDs = await runnerWithCard('4000002760003184');
    expect(await gateway.placeHold(hold(threeDs))).toMatchObject({ status: 'authentication_required' });
    const present = await gateway.placeHold({ ...hold(threeDs), customerPresent: true });
    if (present.status !== 'authentication_required') throw new Error('no authentication');
    expect(present.clientSecret).toMatch(/_secret_/);
    expect(await gateway.retrievePaymentIntent(present.paymentIntentId)).toMatchObject({ status: 'requires_action' });
  });

  it('the same key replays the first answer, even after the card changed; nothing is done twice', async () => {
    const runner = await runnerWithCard('pm_card_chargeCustomerFail');
    const input = hold(runner);
    const first = await gateway.placeHold(input);
    expect(first.status).toBe('declined');
    await gateway.setCardBehaviour(runner.paymentMethodId, 'succeeds');
    expect(await gateway.placeHold({ ...input, metadata: { stake_id: 's1' } })).toEqual(first);
    expect(await paymentIntentRows(runner.customerId)).toHaveLength(1);

    // Concurrent first calls with one key: one PaymentIntent, one answer.
    const again = hold(runner);
    const [a, b] = await Promise.all([gateway.placeHold(again), gateway.placeHold(again)]);
    expect(a).toEqual(b);
    expect(await paymentIntentRows(runner.customerId)).toHaveLength(2);

    // A failure is replayed too.
    const missing = { paymentIntentId: 'pi_missing', amountCents: 100, idempotencyKey: key('c') };
    const e1 = await failure(gateway.captureHold(missing));
    const e2 = await failure(gateway.captureHold(missing));
    expect([e1.code, e2.code, e2.message]).toEqual(['not_found', 'not_found', e1.message]);
  });

  it('the same key with other parameters or for another operation is an idempotency_mismatch', async () => {
    const runner = await runnerWithCard();
    const input = hold(runner);
    const held = await gateway.placeHold(input);
    if (held.status !== 'held') throw new Error('not held');
    expect((await failure(gateway.placeHold({ ...input, amountCents: 2100 }))).code).toBe('idempotency_mismatch');
    expect((await failure(gateway.placeHold({ ...input, metadata: { stake_id: 's2' } }))).code).toBe(
      'idempotency_mismatch',
    );
    const reuse = gateway.chargeOffSession({ ...input, metadata: { stake_id: 's1' } });
    expect((await failure(reuse)).code).toBe('idempotency_mismatch');
    expect(await paymentIntentRows(runner.customerId)).toHaveLength(1);
  });

  it('a key is forgotten after 24 hours, like Stripe’s: re-fetch before retrying an old call', async () => {
    const runner = await runnerWithCard();
    const input = hold(runner);
    const first = await gateway.placeHold(input);
    clock.advance(24 * HOUR + 1);
    const second = await gateway.placeHold(input);
    expect(second.status).toBe('held');
    expect(second).not.toEqual(first);
    expect(await paymentIntentRows(runner.customerId)).toHaveLength(2);
  });

  it('records signed webhook events that parse the same when duplicated and out of order', async () => {
    const before = (await gateway.webhookDeliveries()).at(-1)?.sequence ?? 0;
    const runner = await runnerWithCard();
    const held = await gateway.placeHold(hold(runner));
    if (held.status !== 'held') throw new Error('not held');
    await gateway.captureHold({ paymentIntentId: held.paymentIntentId, amountCents: 2000, idempotencyKey: key('c') });

    const deliveries = await gateway.webhookDeliveries(before);
    expect(deliveries.map((d) => d.type)).toEqual([
      'payment_intent.created',
      'payment_intent.amount_capturable_updated',
      'payment_intent.succeeded',
    ]);
    const inOrder = deliveries.map((d) => gateway.parseWebhook(d.body, d.signatureHeader));
    expect(inOrder.every((e) => e.paymentIntentId === held.paymentIntentId && e.createdAt === START)).toBe(true);

    const shuffled = [deliveries[2], deliveries[0], deliveries[2], deliveries[1], deliveries[0]].map((d) => d!);
    const parsed = shuffled.map((d) => gateway.parseWebhook(Buffer.from(d.body), d.signatureHeader));
    const byId = new Map(parsed.map((e) => [e.id, e]));
    expect([...byId.values()].sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [...inOrder].sort((x, y) => x.id.localeCompare(y.id)),
    );

    // The scheme is Stripe's: the SDK verifies a local signature.
    const d = deliveries[0]!;
    expect(
      Stripe.webhooks.constructEvent(d.body, d.signatureHeader, SECRET, 300, undefined, clock.now().getTime()).id,
    ).toBe(d.eventId);
  });

  it('refuses a tampered, wrongly signed, stale or unsigned webhook', async () => {
    const runner = await runnerWithCard();
    await gateway.placeHold(hold(runner));
    const d = (await gateway.webhookDeliveries()).at(-1)!;
    expect(() => gateway.parseWebhook(d.body.replace('"amount":2000', '"amount":1'), d.signatureHeader)).toThrow(
      WebhookSignatureError,
    );
    const other = new LocalPaymentGateway({ db: database.db, clock, webhookSecret: 'whsec_other' });
    expect(() => other.parseWebhook(d.body, d.signatureHeader)).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(d.body, '')).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(d.body, 't=abc')).toThrow(WebhookSignatureError);
    clock.advance(301_000);
    expect(() => gateway.parseWebhook(d.body, d.signatureHeader)).toThrow(WebhookSignatureError);
  });

  it('the sweep lets lapsed holds expire with a payment_intent.canceled event at the deadline', async () => {
    const held = await gateway.placeHold(hold(await runnerWithCard()));
    if (held.status !== 'held') throw new Error('not held');
    const before = (await gateway.webhookDeliveries()).at(-1)?.sequence ?? 0;
    clock.set(new Date(Date.parse(held.captureBefore) + HOUR));
    expect(await gateway.sweepExpiredHolds()).toBeGreaterThanOrEqual(1);
    const canceled = (await gateway.webhookDeliveries(before))
      .map((d) => gateway.parseWebhook(d.body, d.signatureHeader))
      .filter((e) => e.paymentIntentId === held.paymentIntentId);
    expect(canceled).toEqual([
      expect.objectContaining({ type: 'payment_intent.canceled', createdAt: held.captureBefore }),
    ]);
    expect(await gateway.sweepExpiredHolds()).toBe(0);
  });

  it('refuses fractional, tiny and unkeyed amounts before doing anything', async () => {
    const runner = await runnerWithCard();
    expect((await failure(gateway.placeHold({ ...hold(runner), amountCents: 19.99 }))).code).toBe('invalid_request');
    expect((await failure(gateway.placeHold({ ...hold(runner), amountCents: 49 }))).code).toBe('invalid_request');
    expect((await failure(gateway.chargeOffSession({ ...hold(runner), idempotencyKey: ' ' }))).code).toBe(
      'invalid_request',
    );
    expect(await paymentIntentRows(runner.customerId)).toHaveLength(0);
  });
});
