import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_WEBHOOK_SECRET } from '../../app-server/adapters/payments/create-payment-gateway.ts';
import { LocalPaymentGateway } from '../../app-server/adapters/payments/local/local-gateway.ts';
import { signWebhook } from '../../app-server/adapters/payments/local/webhook-signature.ts';
import { StripeGateway } from '../../app-server/adapters/payments/stripe/stripe-gateway.ts';
import { FakeStripeServer, stripeError } from '../payments/support/fake-stripe-server.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser } from '../support/users.ts';
import { cycle, saveCard, stakedGoal } from './money-fixtures.ts';

/**
 * The payment webhook believes only signatures it should: a correctly signed event about a PaymentIntent nobody here
 * knows is answered 2xx (the processor would retry it for days), recorded, and changes nothing; a signature made with
 * the local gateway's public development secret is refused wherever the local gateway is not the one serving in
 * development (Stripe configured, or production).
 */
const STRIPE_ENDPOINT_SECRET = 'whsec_stripe_endpoint_for_tests';

const event = (id: string, paymentIntentId: string) =>
  JSON.stringify({
    id,
    object: 'event',
    type: 'payment_intent.succeeded',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: paymentIntentId, object: 'payment_intent', status: 'succeeded' } },
  });

const deliver = (rt: TestRuntime, body: string, secret: string, at: Date) =>
  rt.request('POST', '/api/payment/webhook', {
    body,
    headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(body, secret, at) },
  });

/** The stakes read model and the event log, as they stand. */
async function snapshot(rt: TestRuntime): Promise<{ stakes: unknown[]; events: number; head: unknown }> {
  const stakes = await sql<Record<string, unknown>>`SELECT * FROM stakes ORDER BY id`.execute(rt.database.db);
  const events = await sql<{ n: number }>`SELECT count(*)::int AS n FROM es_events`.execute(rt.database.db);
  return { stakes: stakes.rows, events: events.rows[0]!.n, head: await rt.store.headPosition({ committed: true }) };
}

async function recorded(rt: TestRuntime, id: string) {
  const { rows } = await sql<{ outcome: string | null; payment_intent_id: string | null }>`
    SELECT outcome, payment_intent_id FROM payment_webhook_events WHERE id = ${id}`.execute(rt.database.db);
  return rows;
}

describe.each(databaseTargets())('payment webhook trust on %s', (target) => {
  const stripe = new FakeStripeServer();

  beforeAll(async () => {
    await stripe.start();
    // Stripe knows no PaymentIntent at all: every retrieve is a 404 resource_missing.
    stripe.respond(() =>
      stripeError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: "No such payment_intent: 'pi_nobody'",
      }),
    );
  });
  afterAll(() => stripe.stop());

  describe('with the local gateway in development', () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z' });
      // A stake in the read model and events in the log, so "nothing changed" means something.
      const ann = await createTestUser(rt, 'ann');
      await stakedGoal(rt, ann, { pm: await saveCard(rt, ann, 'pm_card_visa') });
      await cycle(rt);
    }, 60_000);
    afterAll(() => rt?.close());

    it('answers 2xx to a signed event for an unknown PaymentIntent, records it and changes nothing', async () => {
      const before = await snapshot(rt);
      expect(before.stakes.length).toBe(1);
      const body = event('evt_unknown_pi_local', 'pi_nobody_local');
      const res = await deliver(rt, body, LOCAL_WEBHOOK_SECRET, rt.clock.now());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, duplicate: false });
      expect(await recorded(rt, 'evt_unknown_pi_local')).toEqual([
        { outcome: 'unknown_payment_intent', payment_intent_id: 'pi_nobody_local' },
      ]);
      // Delivered again: a duplicate, still 2xx.
      const again = await deliver(rt, body, LOCAL_WEBHOOK_SECRET, rt.clock.now());
      expect(again.status).toBe(200);
      expect(again.body.duplicate).toBe(true);
      await cycle(rt);
      expect(await snapshot(rt)).toEqual(before);
    });

    it('answers 2xx to a signed event that names no PaymentIntent at all, and records it', async () => {
      const before = await snapshot(rt);
      const body = JSON.stringify({
        id: 'evt_customer',
        type: 'customer.updated',
        created: 1,
        data: { object: { id: 'cus_1', object: 'customer' } },
      });
      const res = await deliver(rt, body, LOCAL_WEBHOOK_SECRET, rt.clock.now());
      expect(res.status).toBe(200);
      expect(await recorded(rt, 'evt_customer')).toEqual([{ outcome: 'no_payment_intent', payment_intent_id: null }]);
      expect(await snapshot(rt)).toEqual(before);
    });
  });

  describe('with Stripe configured', () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      const config = { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: STRIPE_ENDPOINT_SECRET };
      const payments = new StripeGateway({
        secretKey: config.STRIPE_SECRET_KEY,
        webhookSecret: STRIPE_ENDPOINT_SECRET,
        host: '127.0.0.1',
        port: stripe.port,
        protocol: 'http',
        maxNetworkRetries: 0,
      });
      rt = await startTestRuntime(target, { config, payments });
    }, 60_000);
    afterAll(() => rt?.close());

    it('answers 2xx to a Stripe-signed event whose PaymentIntent Stripe does not know, and changes nothing', async () => {
      const before = await snapshot(rt);
      const res = await deliver(rt, event('evt_unknown_pi_stripe', 'pi_nobody'), STRIPE_ENDPOINT_SECRET, new Date());
      expect(res.status).toBe(200);
      expect(await recorded(rt, 'evt_unknown_pi_stripe')).toEqual([
        { outcome: 'unknown_payment_intent', payment_intent_id: 'pi_nobody' },
      ]);
      expect(stripe.requests.some((r) => r.path.startsWith('/v1/payment_intents/pi_nobody'))).toBe(true);
      expect(await snapshot(rt)).toEqual(before);
    });

    it('refuses (400) an event signed with the local gateway’s public secret, before anything is recorded', async () => {
      const res = await deliver(rt, event('evt_forged_stripe', 'pi_nobody'), LOCAL_WEBHOOK_SECRET, new Date());
      expect(res.status).toBe(400);
      expect(await recorded(rt, 'evt_forged_stripe')).toEqual([]);
    });
  });

  describe('in production', () => {
    const production = { NODE_ENV: 'production' as const, AUTH_ENCRYPTION_KEY: 'k'.repeat(40) };

    it('refuses (400) the public secret even where a local gateway was handed it', async () => {
      const rt = await startTestRuntime(target, { config: production, payments: null });
      try {
        const misconfigured = new LocalPaymentGateway({
          db: rt.database.db,
          clock: rt.clock,
          webhookSecret: LOCAL_WEBHOOK_SECRET,
        });
        const handed = await startTestRuntime(target, { config: production, payments: misconfigured });
        try {
          for (const runtime of [rt, handed]) {
            const res = await deliver(runtime, event('evt_forged_prod', 'pi_x'), LOCAL_WEBHOOK_SECRET, rt.clock.now());
            expect(res.status).toBe(400);
            expect(await recorded(runtime, 'evt_forged_prod')).toEqual([]);
          }
        } finally {
          await handed.close();
        }
      } finally {
        await rt.close();
      }
    }, 60_000);
  });
});
