import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../app-server/clock.ts';
import { PaymentGatewayError, WebhookSignatureError } from '../../app-server/adapters/payments/payment-errors.ts';
import { StripeGateway } from '../../app-server/adapters/payments/stripe/stripe-gateway.ts';
import {
  chargeWithDeadline,
  FakeStripeServer,
  formArray,
  paymentIntent,
  stripeError,
} from './support/fake-stripe-server.ts';

const WEBHOOK_SECRET = 'whsec_test_secret';
const server = new FakeStripeServer();
const clock = new ManualClock('2026-11-23T05:00:00Z');
let gateway: StripeGateway;

beforeAll(async () => {
  await server.start();
  gateway = new StripeGateway({
    secretKey: 'sk_test_fake',
    webhookSecret: WEBHOOK_SECRET,
    host: '127.0.0.1',
    port: server.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    clock,
  });
});
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.respond(() => undefined);
});

const hold = {
  customerId: 'cus_1',
  paymentMethodId: 'pm_1',
  amountCents: 2000,
  idempotencyKey: 'stake-s1-hold',
  metadata: { stake_id: 's1', goal_id: 'g1' },
};

async function failure(promise: Promise<unknown>): Promise<PaymentGatewayError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentGatewayError);
  return error as PaymentGatewayError;
}

describe('Stripe adapter: requests', () => {
  it('places an off-session manual-capture hold and reads capture_before from the expanded charge', async () => {
    const deadline = Date.parse('2026-11-27T23:00:00Z') / 1000;
    server.respond(() => ({
      status: 200,
      body: paymentIntent({ amount: 2000, amount_capturable: 2000, latest_charge: chargeWithDeadline(deadline) }),
    }));

    const result = await gateway.placeHold(hold);

    expect(result).toEqual({
      status: 'held',
      paymentIntentId: 'pi_123',
      amountCents: 2000,
      captureBefore: '2026-11-27T23:00:00.000Z',
    });
    const request = server.last('POST', '/v1/payment_intents');
    expect(Object.fromEntries(request.form)).toMatchObject({
      amount: '2000',
      currency: 'usd',
      customer: 'cus_1',
      payment_method: 'pm_1',
      capture_method: 'manual',
      confirm: 'true',
      off_session: 'true',
      'payment_method_options[card][request_extended_authorization]': 'if_available',
      'metadata[stake_id]': 's1',
      'metadata[goal_id]': 'g1',
    });
    expect(formArray(request.form, 'expand')).toEqual(['latest_charge']);
    expect(formArray(request.form, 'allowed_payment_method_types')).toEqual(['card']);
    expect(request.headers['idempotency-key']).toBe('stake-s1-hold');
    expect(request.headers.authorization).toBe('Bearer sk_test_fake');
  });

  it('a customer-present hold is not flagged off-session', async () => {
    server.respond(() => ({ status: 200, body: paymentIntent({ latest_charge: chargeWithDeadline(1_764_576_000) }) }));
    await gateway.placeHold({ ...hold, customerPresent: true });
    expect(server.last('POST', '/v1/payment_intents').form.has('off_session')).toBe(false);
  });

  it('without a reported capture_before, assumes the shortest window (Visa, merchant-initiated: 4 d 18 h)', async () => {
    server.respond(() => ({ status: 200, body: paymentIntent({ latest_charge: chargeWithDeadline(undefined) }) }));
    const result = await gateway.placeHold(hold);
    expect(result).toMatchObject({
      status: 'held',
      captureBefore: new Date((1_763_971_200 + (4 * 24 + 18) * 3600) * 1000).toISOString(),
    });
  });

  it('captures with amount_to_capture and the idempotency key', async () => {
    server.respond(() => ({ status: 200, body: paymentIntent({ status: 'succeeded', amount_received: 1500 }) }));
    const result = await gateway.captureHold({ paymentIntentId: 'pi_123', amountCents: 1500, idempotencyKey: 'k-cap' });
    expect(result).toEqual({ status: 'captured', paymentIntentId: 'pi_123', amountCapturedCents: 1500 });
    const request = server.last('POST', '/v1/payment_intents/pi_123/capture');
    expect(request.form.get('amount_to_capture')).toBe('1500');
    expect(request.headers['idempotency-key']).toBe('k-cap');
  });

  it('releases by canceling the PaymentIntent', async () => {
    server.respond(() => ({ status: 200, body: paymentIntent({ status: 'canceled' }) }));
    const result = await gateway.releaseHold({ paymentIntentId: 'pi_123', idempotencyKey: 'k-rel' });
    expect(result).toEqual({ status: 'released', paymentIntentId: 'pi_123' });
    expect(server.last('POST', '/v1/payment_intents/pi_123/cancel').headers['idempotency-key']).toBe('k-rel');
  });

  it('refunds a PaymentIntent with refunds.create, the amount and the idempotency key; pending is on its way back', async () => {
    server.respond(() => ({ status: 200, body: { id: 're_1', object: 'refund', amount: 1000, status: 'pending' } }));
    const refund = { paymentIntentId: 'pi_123', amountCents: 1000, idempotencyKey: 'stake-s1-refund', metadata: {} };
    expect(await gateway.refundPayment(refund)).toEqual({ status: 'refunded', refundId: 're_1', amountCents: 1000 });
    const request = server.last('POST', '/v1/refunds');
    expect(request.form.get('payment_intent')).toBe('pi_123');
    expect(request.form.get('amount')).toBe('1000');
    expect(request.headers['idempotency-key']).toBe('stake-s1-refund');
    server.respond(() => ({
      status: 200,
      body: {
        id: 're_2',
        object: 'refund',
        amount: 1000,
        status: 'failed',
        failure_reason: 'expired_or_canceled_card',
      },
    }));
    expect(await gateway.refundPayment(refund)).toEqual({
      status: 'failed',
      refundId: 're_2',
      reason: 'expired_or_canceled_card',
    });
    server.respond(() => stripeError(400, { type: 'invalid_request_error', code: 'charge_already_refunded' }));
    expect(await gateway.refundPayment(refund)).toMatchObject({ status: 'refunded', amountCents: 1000 });
  });

  it('charges off-session with automatic capture', async () => {
    server.respond(() => ({
      status: 200,
      body: paymentIntent({ id: 'pi_c', status: 'succeeded', capture_method: 'automatic', amount_received: 2000 }),
    }));
    const result = await gateway.chargeOffSession({ ...hold, idempotencyKey: 'stake-s1-charge-1' });
    expect(result).toEqual({ status: 'succeeded', paymentIntentId: 'pi_c', amountCents: 2000 });
    const request = server.last('POST', '/v1/payment_intents');
    expect(Object.fromEntries(request.form)).toMatchObject({
      amount: '2000',
      currency: 'usd',
      capture_method: 'automatic',
      confirm: 'true',
      off_session: 'true',
    });
    expect(request.headers['idempotency-key']).toBe('stake-s1-charge-1');
  });

  it('creates a SetupIntent for off-session use and returns its client secret', async () => {
    server.respond(() => ({
      status: 200,
      body: {
        id: 'seti_1',
        object: 'setup_intent',
        client_secret: 'seti_1_secret_x',
        status: 'requires_payment_method',
      },
    }));
    const result = await gateway.createSetupIntent({ customerId: 'cus_1', idempotencyKey: 'k-setup' });
    expect(result).toEqual({ setupIntentId: 'seti_1', clientSecret: 'seti_1_secret_x' });
    const request = server.last('POST', '/v1/setup_intents');
    expect(request.form.get('usage')).toBe('off_session');
    expect(request.form.get('customer')).toBe('cus_1');
    expect(request.headers['idempotency-key']).toBe('k-setup');
  });

  it('a SetupIntent without a client secret is an error, not an empty answer', async () => {
    server.respond(() => ({ status: 200, body: { id: 'seti_1', object: 'setup_intent', client_secret: null } }));
    expect((await failure(gateway.createSetupIntent({ customerId: 'cus_1' }))).code).toBe('provider_error');
    expect(server.last('POST', '/v1/setup_intents').headers['idempotency-key']).toMatch(/^setup-/);
  });

  it('finds the user’s customer by e-mail and metadata, or creates it with a per-user idempotency key', async () => {
    let customers: unknown[] = [{ id: 'cus_other', object: 'customer', metadata: { stridestake_user_id: 'u-2' } }];
    server.respond((r) => {
      if (r.method === 'GET' && r.path === '/v1/customers') {
        return { status: 200, body: { object: 'list', data: customers, has_more: false } };
      }
      if (r.method === 'POST' && r.path === '/v1/customers') {
        return { status: 200, body: { id: 'cus_new', object: 'customer', metadata: {} } };
      }
      return undefined;
    });
    expect(await gateway.ensureCustomer({ userId: 'u-1', email: 'a@example.com' })).toEqual({ customerId: 'cus_new' });
    expect(server.last('GET', '/v1/customers').query.get('email')).toBe('a@example.com');
    const created = server.last('POST', '/v1/customers');
    expect(created.form.get('metadata[stridestake_user_id]')).toBe('u-1');
    expect(created.headers['idempotency-key']).toBe('customer-u-1');

    customers = [{ id: 'cus_mine', object: 'customer', metadata: { stridestake_user_id: 'u-1' } }];
    server.requests.length = 0;
    expect(await gateway.ensureCustomer({ userId: 'u-1', email: 'a@example.com' })).toEqual({ customerId: 'cus_mine' });
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('lists cards and detaches only the customer’s own', async () => {
    server.respond((r) => {
      if (r.method === 'GET' && r.path === '/v1/payment_methods') {
        const card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 };
        return { status: 200, body: { object: 'list', data: [{ id: 'pm_1', object: 'payment_method', card }] } };
      }
      if (r.method === 'GET' && r.path === '/v1/payment_methods/pm_1') {
        return { status: 200, body: { id: 'pm_1', object: 'payment_method', customer: 'cus_1' } };
      }
      if (r.method === 'POST' && r.path === '/v1/payment_methods/pm_1/detach') {
        return { status: 200, body: { id: 'pm_1', object: 'payment_method', customer: null } };
      }
      return undefined;
    });
    expect(await gateway.listPaymentMethods({ customerId: 'cus_1' })).toEqual([
      { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
    ]);
    const list = server.last('GET', '/v1/payment_methods');
    expect(list.query.get('customer')).toBe('cus_1');
    expect(list.query.get('type')).toBe('card');

    const refused = await failure(gateway.detachPaymentMethod({ customerId: 'cus_2', paymentMethodId: 'pm_1' }));
    expect(refused.code).toBe('not_owned');
    expect(server.requests.some((r) => r.path.endsWith('/detach'))).toBe(false);

    await gateway.detachPaymentMethod({ customerId: 'cus_1', paymentMethodId: 'pm_1' });
    expect(server.last('POST', '/v1/payment_methods/pm_1/detach').headers['idempotency-key']).toBe('detach-pm_1');
  });

  it('retrieves a PaymentIntent with its charge expanded', async () => {
    const deadline = Date.parse('2026-11-30T05:00:00Z') / 1000;
    server.respond(() => ({
      status: 200,
      body: paymentIntent({
        amount_capturable: 1000,
        metadata: { stake_id: 's1' },
        latest_charge: chargeWithDeadline(deadline),
      }),
    }));
    expect(await gateway.retrievePaymentIntent('pi_123')).toEqual({
      id: 'pi_123',
      status: 'requires_capture',
      amountCents: 1000,
      amountCapturableCents: 1000,
      amountCapturedCents: 0,
      captureBefore: '2026-11-30T05:00:00.000Z',
      customerId: 'cus_1',
      metadata: { stake_id: 's1' },
    });
    expect(formArray(server.last('GET', '/v1/payment_intents/pi_123').query, 'expand')).toEqual(['latest_charge']);
  });
});

describe('Stripe adapter: outcomes and errors', () => {
  const piInError = (status: string, extra: Record<string, unknown> = {}) => paymentIntent({ status, ...extra });

  it('a declined hold is a result carrying the issuer’s decline code', async () => {
    server.respond(() =>
      stripeError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        payment_intent: piInError('requires_payment_method'),
      }),
    );
    expect(await gateway.placeHold(hold)).toEqual({
      status: 'declined',
      paymentIntentId: 'pi_123',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
  });

  it('authentication_required (off-session 3-D Secure) is a result with the PaymentIntent to finish in the app', async () => {
    server.respond(() =>
      stripeError(402, {
        type: 'card_error',
        code: 'authentication_required',
        decline_code: 'authentication_required',
        message: 'This payment requires authentication.',
        payment_intent: piInError('requires_payment_method', { id: 'pi_auth', client_secret: 'pi_auth_secret' }),
      }),
    );
    expect(await gateway.chargeOffSession(hold)).toEqual({
      status: 'authentication_required',
      paymentIntentId: 'pi_auth',
      clientSecret: 'pi_auth_secret',
    });
  });

  it('a requires_action PaymentIntent (customer present) is authentication_required', async () => {
    server.respond(() => ({ status: 200, body: paymentIntent({ status: 'requires_action' }) }));
    expect(await gateway.placeHold({ ...hold, customerPresent: true })).toMatchObject({
      status: 'authentication_required',
      paymentIntentId: 'pi_123',
    });
  });

  it('charge_expired_for_capture means the hold expired', async () => {
    server.respond(() =>
      stripeError(400, {
        type: 'invalid_request_error',
        code: 'charge_expired_for_capture',
        message: 'This charge has expired for capture.',
      }),
    );
    expect(await gateway.captureHold({ paymentIntentId: 'pi_123', amountCents: 1000, idempotencyKey: 'k' })).toEqual({
      status: 'expired',
      paymentIntentId: 'pi_123',
    });
  });

  it('capturing a canceled PaymentIntent is expired; a succeeded one is already captured', async () => {
    const unexpected = (status: string) =>
      stripeError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `This PaymentIntent's status is ${status}.`,
        payment_intent: piInError(status, { amount_received: status === 'succeeded' ? 1000 : 0 }),
      });
    server.respond(() => unexpected('canceled'));
    expect(await gateway.captureHold({ paymentIntentId: 'pi_123', amountCents: 1000, idempotencyKey: 'k' })).toEqual({
      status: 'expired',
      paymentIntentId: 'pi_123',
    });
    server.respond(() => unexpected('succeeded'));
    expect(await gateway.captureHold({ paymentIntentId: 'pi_123', amountCents: 1000, idempotencyKey: 'k' })).toEqual({
      status: 'already_captured',
      paymentIntentId: 'pi_123',
      amountCapturedCents: 1000,
    });
    // Releasing: canceled already is a success; captured already is reported, not hidden.
    server.respond(() => unexpected('canceled'));
    expect(await gateway.releaseHold({ paymentIntentId: 'pi_123', idempotencyKey: 'r' })).toEqual({
      status: 'released',
      paymentIntentId: 'pi_123',
    });
    server.respond(() => unexpected('succeeded'));
    expect(await gateway.releaseHold({ paymentIntentId: 'pi_123', idempotencyKey: 'r' })).toMatchObject({
      status: 'already_captured',
    });
  });

  it('maps idempotency, rate-limit, server, auth and missing-object errors to typed codes with no SDK object', async () => {
    const cases: [ReturnType<typeof stripeError>, string, boolean][] = [
      [
        stripeError(400, {
          type: 'idempotency_error',
          message: 'Keys for idempotent requests can only be used with the same parameters',
        }),
        'idempotency_mismatch',
        false,
      ],
      [
        stripeError(409, { type: 'idempotency_error', code: 'idempotency_key_in_use', message: 'in use' }),
        'idempotency_in_use',
        true,
      ],
      [
        stripeError(429, { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' }),
        'rate_limited',
        true,
      ],
      [stripeError(500, { type: 'api_error', message: 'Something went wrong' }), 'provider_error', false],
      [
        stripeError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' }),
        'configuration',
        false,
      ],
      [
        stripeError(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: 'No such payment_intent',
        }),
        'not_found',
        false,
      ],
    ];
    for (const [response, code, retryable] of cases) {
      server.respond(() => response);
      const error = await failure(gateway.retrievePaymentIntent('pi_x'));
      expect({ code: error.code, retryable: error.retryable }).toEqual({ code, retryable });
      expect(Object.values(error).some((v) => v instanceof Stripe.errors.StripeError)).toBe(false);
      expect(error.cause).toBeUndefined();
    }
  });

  it('no answer at all is a retryable network error', async () => {
    const offline = new StripeGateway({
      secretKey: 'sk_test_fake',
      host: '127.0.0.1',
      port: 1,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const error = await failure(
      offline.captureHold({ paymentIntentId: 'pi_1', amountCents: 500, idempotencyKey: 'k' }),
    );
    expect(error).toMatchObject({ code: 'network', retryable: true });
  });

  it('a response lost after sending is retried with the same idempotency key, by the SDK and then by the caller', async () => {
    const retrying = new StripeGateway({
      secretKey: 'sk_test_fake',
      host: '127.0.0.1',
      port: server.port,
      protocol: 'http',
      maxNetworkRetries: 1,
    });
    let calls = 0;
    server.respond(() => {
      calls += 1;
      return calls <= 2 ? 'drop' : { status: 200, body: paymentIntent({ status: 'succeeded', amount_received: 2000 }) };
    });
    const input = { paymentIntentId: 'pi_123', amountCents: 2000, idempotencyKey: 'stake-s1-capture' };
    const lost = await failure(retrying.captureHold(input));
    expect(lost).toMatchObject({ code: 'network', retryable: true });
    expect(await retrying.captureHold(input)).toMatchObject({ status: 'captured', amountCapturedCents: 2000 });
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      'stake-s1-capture',
      'stake-s1-capture',
      'stake-s1-capture',
    ]);
  });

  it('refuses amounts that are not whole cents before calling Stripe', async () => {
    expect((await failure(gateway.placeHold({ ...hold, amountCents: 20.5 }))).code).toBe('invalid_request');
    expect((await failure(gateway.placeHold({ ...hold, idempotencyKey: '' }))).code).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
  });
});

describe('Stripe adapter: webhooks', () => {
  const body = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'payment_intent.amount_capturable_updated',
    created: Math.floor(clock.now().getTime() / 1000),
    data: { object: { id: 'pi_123', object: 'payment_intent', status: 'requires_capture' } },
  });
  const sign = (payload: string, secret = WEBHOOK_SECRET, timestamp = Math.floor(clock.now().getTime() / 1000)) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  it('accepts an event signed by the SDK and normalises it', () => {
    expect(gateway.parseWebhook(body, sign(body))).toEqual({
      id: 'evt_1',
      type: 'payment_intent.amount_capturable_updated',
      paymentIntentId: 'pi_123',
      createdAt: clock.now().toISOString(),
    });
    expect(gateway.parseWebhook(Buffer.from(body), sign(body)).id).toBe('evt_1');
  });

  it('refuses a tampered body, a wrong secret, a stale timestamp and a missing header', () => {
    const header = sign(body);
    expect(() => gateway.parseWebhook(body.replace('pi_123', 'pi_999'), header)).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(body, sign(body, 'whsec_other'))).toThrow(WebhookSignatureError);
    const old = Math.floor(clock.now().getTime() / 1000) - 301;
    expect(() => gateway.parseWebhook(body, sign(body, WEBHOOK_SECRET, old))).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(body, undefined)).toThrow(WebhookSignatureError);
  });
});
