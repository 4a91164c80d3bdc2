import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, type TestUser } from '../support/users.ts';
import { audit, cycle, intentsOf, localGateway, saveCard, stakedGoal, stakeOf } from './money-fixtures.ts';

// Monday 2026-11-16 15:00 UTC (10:00 New York): every goal below is for this week and active at once.
describe.each(databaseTargets())('stakes through the week on %s', (target) => {
  let rt: TestRuntime;
  const users: Record<string, TestUser> = {};
  const goals: Record<string, string> = {};
  const cards: Record<string, string> = {};
  const refresh = async () => {
    for (const [k, u] of Object.entries(users)) users[k] = await freshToken(rt, u);
  };

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z' });
    // met and missed: Mastercard (a 7-day hold); lapsed, declined, auth: Visa (4 d 18 h off-session hold).
    const setup: [string, string, string | null][] = [
      ['met', 'pm_card_mastercard', 'givedirectly'],
      ['missed', 'pm_card_mastercard', 'against-malaria-foundation'],
      ['lapsed', 'pm_card_visa', null],
      ['canceled', 'pm_card_mastercard', 'feeding-america'],
      ['declined', 'pm_card_visa', null],
      ['auth', 'pm_card_visa', 'givedirectly'],
    ];
    for (const [name, card, charity] of setup) {
      users[name] = await createTestUser(rt, name);
      cards[name] = await saveCard(rt, users[name]!, card);
      goals[name] = await stakedGoal(rt, users[name]!, { pm: cards[name]!, charity });
    }
  }, 120_000);
  afterAll(() => rt?.close());

  it('opens each stake with its goal and places the hold once the goal is active', async () => {
    expect((await stakeOf(rt, users.met!, goals.met!)).status).toBe('pending');
    await cycle(rt);
    for (const name of Object.keys(goals)) {
      const stake = await stakeOf(rt, users[name]!, goals[name]!);
      expect(stake, name).toMatchObject({ status: 'active', label: 'Active', amount_cents: 1000, on_hold: true });
      expect((await intentsOf(rt, goals[name]!)).map((pi) => pi.status)).toEqual(['requires_capture']);
    }
  });

  it('met: releases the hold as soon as the goal is completed', async () => {
    rt.clock.set('2026-11-16T18:00:00Z');
    await refresh();
    for (const hour of ['16', '17']) {
      const res = await rt.request('POST', '/runs', {
        token: users.met!.token,
        body: runBody(`2026-11-16T${hour}:00:00Z`, 1),
      });
      expect(res.status).toBe(201);
    }
    await cycle(rt);
    expect(await stakeOf(rt, users.met!, goals.met!)).toMatchObject({ status: 'succeeded', label: 'Refunded' });
    expect((await intentsOf(rt, goals.met!)).map((pi) => pi.status)).toEqual(['canceled']);
  });

  it('canceled while active: forfeits by capturing the hold', async () => {
    const res = await rt.request('PATCH', `/goals/${goals.canceled}`, {
      token: users.canceled!.token,
      body: { status: 'canceled' },
    });
    expect(res.status).toBe(200);
    await cycle(rt);
    expect(await stakeOf(rt, users.canceled!, goals.canceled!)).toMatchObject({
      status: 'forfeited',
      label: 'Forfeited',
      donation_amount_cents: 800,
      fee_cents: 200,
    });
    expect((await intentsOf(rt, goals.canceled!)).map((pi) => [pi.status, pi.amount_received])).toEqual([
      ['succeeded', 1000],
    ]);
  });

  it('settles on Monday 00:00 New York: capture, charge after a lapsed hold, and recorded failures', async () => {
    localGateway(rt).setCardBehaviour(cards.declined!, 'insufficient_funds');
    await localGateway(rt).setCardBehaviour(cards.auth!, 'authentication_required');
    rt.clock.set('2026-11-23T05:00:30Z');
    await refresh();
    await cycle(rt);
    expect(await stakeOf(rt, users.missed!, goals.missed!)).toMatchObject({
      status: 'lost',
      label: 'Forfeited',
      donation_amount_cents: 800,
      fee_cents: 200,
      charity: { id: 'against-malaria-foundation', name: 'Against Malaria Foundation' },
    });
    expect((await intentsOf(rt, goals.missed!)).map((pi) => pi.status)).toEqual(['succeeded']);
    // The Visa hold lapsed on Saturday: never captured, charged off-session instead, all of it a fee (no charity).
    expect(await stakeOf(rt, users.lapsed!, goals.lapsed!)).toMatchObject({
      status: 'lost',
      donation_amount_cents: 0,
      fee_cents: 1000,
    });
    expect((await intentsOf(rt, goals.lapsed!)).map((pi) => [pi.capture_method, pi.status])).toEqual([
      ['manual', 'canceled'],
      ['automatic', 'succeeded'],
    ]);
    expect(await stakeOf(rt, users.declined!, goals.declined!)).toMatchObject({
      status: 'pending',
      payment_problem: 'declined',
      decline_code: 'insufficient_funds',
      next_attempt_at: '2026-11-24T05:00:30.000Z',
    });
    expect(await stakeOf(rt, users.auth!, goals.auth!)).toMatchObject({
      status: 'pending',
      payment_problem: 'authentication_required',
    });
  });

  it('does not retry a failed charge in a storm: the next attempt waits a day', async () => {
    const before = (await intentsOf(rt, goals.declined!)).length;
    rt.clock.advance(3_600_000);
    await cycle(rt);
    expect(await intentsOf(rt, goals.declined!)).toHaveLength(before);
    await localGateway(rt).setCardBehaviour(cards.auth!, 'succeeds');
    rt.clock.set('2026-11-24T05:01:00Z');
    await refresh();
    await cycle(rt);
    expect(await intentsOf(rt, goals.declined!)).toHaveLength(before + 1);
    expect(await stakeOf(rt, users.auth!, goals.auth!)).toMatchObject({ status: 'lost', donation_amount_cents: 800 });
    rt.clock.set('2026-11-27T05:02:00Z');
    await refresh();
    await cycle(rt);
    expect(await stakeOf(rt, users.declined!, goals.declined!)).toMatchObject({
      status: 'uncollectible',
      label: 'Not charged',
    });
    expect(await intentsOf(rt, goals.declined!)).toHaveLength(before + 2);
  });

  it('passes the audit, and the donation impact card lists lost stakes with a charity', async () => {
    const report = await audit(rt);
    if (process.env.TEST_LOG) console.log(JSON.stringify(report, null, 1));
    expect(report.violations).toEqual([]);
    expect(report.openReleases).toEqual([]);
    expect(report.totals.byCharity).toEqual({
      'against-malaria-foundation': { stakes: 1, donationCents: 800 },
      'feeding-america': { stakes: 1, donationCents: 800 },
      givedirectly: { stakes: 1, donationCents: 800 },
    });
    const impact = await rt.request('GET', '/stakes?status=lost&has_charity=true', { token: users.missed!.token });
    expect(impact.body.stakes).toHaveLength(1);
    expect((await rt.request('GET', '/stakes', { token: users.met!.token })).body.stakes).toHaveLength(1);
  });
});
