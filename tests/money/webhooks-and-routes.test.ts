import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stakeIdempotencyKey } from '../../domain/stake/policy.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, settle, type TestUser } from '../support/users.ts';
import { audit, cycle, intentsOf, localGateway, saveCard, stakedGoal, stakeOf } from './money-fixtures.ts';

describe.each(databaseTargets())('payment routes and webhooks on %s', (target) => {
  let rt: TestRuntime;
  let ann: TestUser;
  let ben: TestUser;
  let annCard: string;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z' });
    ann = await createTestUser(rt, 'ann');
    ben = await createTestUser(rt, 'ben');
    annCard = await saveCard(rt, ann, 'pm_card_mastercard');
  }, 60_000);
  afterAll(() => rt?.close());

  it('lists active charities by name, and saved cards only to their owner', async () => {
    const charities = (await rt.request('GET', '/charities')).body.charities;
    expect(charities.map((c: { name: string }) => c.name)).toContain('GiveDirectly');
    expect(charities.map((c: { name: string }) => c.name)).toEqual(
      [...charities.map((c: { name: string }) => c.name)].sort(),
    );
    const mine = await rt.request('GET', '/api/payment/payment-methods', { token: ann.token });
    expect(mine.body.paymentMethods).toMatchObject([{ id: annCard, brand: 'mastercard', last4: '4444' }]);
    expect((await rt.request('GET', '/api/payment/payment-methods', { token: ben.token })).body.paymentMethods).toEqual(
      [],
    );
    expect((await rt.request('DELETE', `/api/payment/payment-methods/${annCard}`, { token: ben.token })).status).toBe(
      404,
    );
  });

  it('refuses a staked goal on a card that is not the user’s own, or an unknown charity', async () => {
    const body = { type: 'count', target_value: 2, stake_amount_cents: 1000, payment_method_id: annCard };
    const res = await rt.request('POST', '/goals', { token: ben.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Please add a payment method to put money on the line');
    const charity = await rt.request('POST', '/goals', { token: ann.token, body: { ...body, charity_id: 'nope' } });
    expect(charity.status).toBe(400);
  });

  it('moves a stake forward from webhooks delivered twice and out of order, and never back', async () => {
    const goalId = await stakedGoal(rt, ann, { pm: annCard, charity: 'st-jude' });
    await cycle(rt);
    expect((await stakeOf(rt, ann, goalId)).status).toBe('active');
    // The card holding the stake cannot be removed while the stake is open.
    expect((await rt.request('DELETE', `/api/payment/payment-methods/${annCard}`, { token: ann.token })).status).toBe(
      409,
    );
    rt.clock.advance(3_600_000);
    ann = await freshToken(rt, ann);
    await rt.request('PATCH', `/goals/${goalId}`, { token: ann.token, body: { status: 'canceled' } });
    await settle(rt);
    // The process captured, then died before recording it: only the provider knows.
    const [hold] = await intentsOf(rt, goalId);
    await localGateway(rt).captureHold({
      paymentIntentId: hold!.id,
      amountCents: 1000,
      idempotencyKey: stakeIdempotencyKey(`goal-${goalId}`, 'capture'),
    });
    const deliveries = (await localGateway(rt).webhookDeliveries(0)).filter((d) => d.body.includes(goalId));
    const shuffled = [...deliveries].reverse().flatMap((d) => [d, d]);
    const answers = [];
    for (const d of shuffled) {
      const res = await rt.request('POST', '/api/payment/webhook', {
        body: d.body,
        headers: { 'stripe-signature': d.signatureHeader },
      });
      expect(res.status).toBe(200);
      answers.push(res.body.duplicate);
    }
    expect(answers.filter((dup) => dup)).toHaveLength(deliveries.length);
    await cycle(rt);
    expect(await stakeOf(rt, ann, goalId)).toMatchObject({
      status: 'forfeited',
      donation_amount_cents: 800,
      fee_cents: 200,
    });
    expect((await intentsOf(rt, goalId)).map((pi) => pi.status)).toEqual(['succeeded']);
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
  });

  it('answers 400 to a webhook with a bad signature and never a 500', async () => {
    const res = await rt.request('POST', '/api/payment/webhook', {
      body: '{"id":"evt_1","type":"payment_intent.succeeded"}',
      headers: { 'stripe-signature': 't=1,v1=deadbeef' },
    });
    expect(res.status).toBe(400);
    expect((await rt.request('POST', '/api/payment/webhook', { body: 'not json' })).status).toBe(400);
  });

  it('shows the spec message when no payment provider is configured', async () => {
    const bare = await startTestRuntime(target, { config: { PAYMENTS_LOCAL_GATEWAY: false } });
    try {
      const user = await createTestUser(bare, 'nopay');
      const res = await bare.request('POST', '/api/payment/setup-intent', { token: user.token });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('Stripe is not configured. Please contact support.');
    } finally {
      await bare.close();
    }
  }, 60_000);
});
