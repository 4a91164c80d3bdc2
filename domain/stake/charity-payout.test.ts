import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charityLedger } from './charity-ledger.ts';
import { type CharityPaidOut, payoutProblem } from './charity-payout.ts';
import type { StakeEvent } from './events.ts';

// Run once with numRuns 5000 before it was committed.
const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) };

const collected = (cents: number, at: string): StakeEvent => ({
  type: 'StakeCollected',
  data: {
    stakeId: `s-${at}-${cents}`,
    outcome: 'lost',
    method: 'capture',
    paymentIntentId: 'pi',
    capturedCents: cents,
    donationCents: Math.floor((cents * 80) / 100),
    feeCents: cents - Math.floor((cents * 80) / 100),
    charityId: 'amf',
    collectedAt: at,
  },
});
const paid = (cents: number, month: string, reference: string): CharityPaidOut => ({
  type: 'CharityPaidOut',
  data: { charityId: 'amf', month, amountCents: cents, reference, paidAt: '2026-12-02T10:00:00Z' },
});

describe('payouts to charities', () => {
  it('a payout is refused beyond what the month still owes, with a sentence', () => {
    const line = { owedCents: 800, paidCents: 500 };
    expect(payoutProblem('amf', '2026-11', line, 300)).toBeNull();
    expect(payoutProblem('amf', '2026-11', line, 400)).toBe(
      '$4.00 is more than the $3.00 still due to amf for 2026-11',
    );
    expect(payoutProblem('amf', '2026-10', undefined, 100)).toBe('Nothing is due to amf for 2026-10');
    expect(payoutProblem('amf', '2026-11', line, 0)).toBe('The amount must be a whole number of cents above 0');
  });

  it('property: due = owed − paid on every line, and payouts allowed one by one never pay more than is owed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 500, max: 10_000 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 6 }),
        (captures, asks) => {
          const events: (StakeEvent | CharityPaidOut)[] = captures.map((c, i) =>
            collected(c, `2026-11-${String(10 + i).padStart(2, '0')}T12:00:00Z`),
          );
          asks.forEach((cents, i) => {
            const line = charityLedger(events).find((l) => l.month === '2026-11');
            if (payoutProblem('amf', '2026-11', line, cents) === null) events.push(paid(cents, '2026-11', `t${i}`));
          });
          for (const line of charityLedger(events)) {
            expect(line.dueCents).toBe(line.owedCents - line.paidCents);
            expect(line.paidCents).toBeLessThanOrEqual(line.owedCents);
            expect(line.dueCents).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      RUNS,
    );
  });
});
