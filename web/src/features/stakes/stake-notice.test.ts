import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stakeNotice } from './stake-notice.ts';

const ZONE = 'America/New_York';
const stake = (over: Partial<Parameters<typeof stakeNotice>[0]>) => ({
  status: 'active',
  payment_problem: null,
  decline_code: null,
  next_attempt_at: null,
  ...over,
});

describe('stakeNotice (the Stakes tab’s payment problems)', () => {
  it('says what happened to a 9995 card at each step, in the runner’s zone', () => {
    expect(stakeNotice(stake({ payment_problem: 'hold_failed', decline_code: 'insufficient_funds' }), ZONE)).toBe(
      'We couldn’t place the hold on your card (insufficient funds). Your stake still stands: if you miss this goal, your card is charged after the week ends.',
    );
    const failed = stake({
      status: 'pending',
      payment_problem: 'declined',
      decline_code: 'insufficient_funds',
      next_attempt_at: '2026-12-01T05:00:30.000Z',
    });
    expect(stakeNotice(failed, ZONE)).toBe(
      'Your card was declined (insufficient funds). We’ll try again on Tue, Dec 1.',
    );
    expect(stakeNotice({ ...failed, status: 'uncollectible', next_attempt_at: null }, ZONE)).toBe(
      'We couldn’t charge your card (insufficient funds) after 3 attempts, so nothing was taken.',
    );
    expect(stakeNotice(stake({ status: 'pending', payment_problem: 'authentication_required' }), ZONE)).toBe(
      'Your bank asks you to confirm this payment.',
    );
    expect(
      stakeNotice(stake({ status: 'pending', payment_problem: 'declined', decline_code: 'generic_decline' }), ZONE),
    ).toBe('Your card was declined.');
  });

  it('property: settled and untroubled stakes say nothing; a pending problem always names a retry date when it has one', () => {
    const status = fc.constantFrom('pending', 'active', 'succeeded', 'refunded', 'forfeited', 'lost', 'uncollectible');
    const problem = fc.option(fc.constantFrom('hold_failed', 'declined', 'authentication_required'), { nil: null });
    const code = fc.option(fc.constantFrom('insufficient_funds', 'generic_decline', 'expired_card', 'weird'), {
      nil: null,
    });
    const next = fc.option(
      fc
        .integer({ min: Date.parse('2026-01-01'), max: Date.parse('2030-01-01') })
        .map((ms) => new Date(ms).toISOString()),
      { nil: null },
    );
    fc.assert(
      fc.property(status, problem, code, next, (status, payment_problem, decline_code, next_attempt_at) => {
        const notice = stakeNotice({ status, payment_problem, decline_code, next_attempt_at }, ZONE);
        if (
          ['succeeded', 'refunded', 'forfeited', 'lost'].includes(status) ||
          (status !== 'uncollectible' && !payment_problem)
        ) {
          expect(notice).toBeNull();
        }
        if (status === 'uncollectible') expect(notice).toMatch(/nothing was taken/);
        if (status === 'pending' && payment_problem && payment_problem !== 'hold_failed') {
          expect(notice?.includes('try again')).toBe(next_attempt_at !== null);
        }
      }),
      { numRuns: 300 },
    );
  });
});
