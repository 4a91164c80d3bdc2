import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, type TestUser } from '../support/users.ts';
import { audit, cycle, intentsOf, saveCard, stakedGoal, stakeOf } from './money-fixtures.ts';

// Stripe's 4000 0000 0000 9995: saved without trouble, refused for insufficient funds whenever it is charged.
describe.each(databaseTargets())('a stake on a card with insufficient funds on %s', (target) => {
  let rt: TestRuntime;
  let user: TestUser;
  let goalId: string;
  const at = async (iso: string) => {
    rt.clock.set(iso);
    user = await freshToken(rt, user);
    await cycle(rt);
    return stakeOf(rt, user, goalId);
  };

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T17:00:00Z' });
    user = await createTestUser(rt, 'dry');
    const card = await saveCard(rt, user, '4000 0000 0000 9995');
    goalId = await stakedGoal(rt, user, { pm: card, charity: 'givedirectly', start: 'next_week' });
  }, 60_000);
  afterAll(() => rt?.close());

  it('is pending until its week starts, then stands unsecured: the hold was refused for insufficient funds', async () => {
    expect(await stakeOf(rt, user, goalId)).toMatchObject({
      status: 'pending',
      label: 'Pending',
      payment_problem: null,
    });
    expect(await at('2026-11-23T05:00:30Z')).toMatchObject({
      status: 'active',
      label: 'Active',
      payment_problem: 'hold_failed',
      decline_code: 'insufficient_funds',
      on_hold: false,
    });
    expect((await intentsOf(rt, goalId)).map((pi) => pi.status)).toEqual(['requires_payment_method']);
  });

  it('a miss is charged off-session after the week; each refusal is shown with the next attempt, then written off', async () => {
    expect(await at('2026-11-30T05:00:30Z')).toMatchObject({
      status: 'pending',
      label: 'Pending',
      payment_problem: 'declined',
      decline_code: 'insufficient_funds',
      next_attempt_at: '2026-12-01T05:00:30.000Z',
    });
    expect(await at('2026-12-01T05:01:00Z')).toMatchObject({
      status: 'pending',
      payment_problem: 'declined',
      next_attempt_at: '2026-12-04T05:01:00.000Z',
    });
    expect(await at('2026-12-04T05:02:00Z')).toMatchObject({
      status: 'uncollectible',
      label: 'Not charged',
      payment_problem: 'declined',
      decline_code: 'insufficient_funds',
      next_attempt_at: null,
      donation_amount_cents: 0,
    });
    // One refused hold and three refused charges; nothing was ever taken.
    const intents = await intentsOf(rt, goalId);
    expect(intents.map((pi) => [pi.capture_method, pi.status, pi.amount_received])).toEqual([
      ['manual', 'requires_payment_method', 0],
      ['automatic', 'requires_payment_method', 0],
      ['automatic', 'requires_payment_method', 0],
      ['automatic', 'requires_payment_method', 0],
    ]);
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    expect(report.totals).toMatchObject({ stakes: 1, capturedCents: 0 });
  });
});
