import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../shared/decider.ts';
import { splitCapture } from '../shared/money.ts';
import type { StakeCommand } from './commands.ts';
import { stakeDecider } from './decide.ts';
import type { StakeEvent } from './events.ts';

// Run once with numRuns 5000 before it was committed.
const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 500) };

/** The week of 2025-03-10 in New York: the appeal opens Sunday the 16th, settlement may run from Monday the 17th. */
const OPENED = Temporal.Instant.from('2025-03-10T04:00:00Z');
/** The sequences start on the week's Sunday, as appeals open (a day before the week may be settled). */
const FIRST_STEP = Temporal.Instant.from('2025-03-16T03:00:00Z');

type Shape =
  | { type: 'RecordHoldPlaced'; holdHours: number }
  | { type: 'RecordHoldExpired' | 'SettleMissed' | 'SettleCompleted' | 'RetryCharge' }
  | { type: 'RecordCaptureSucceeded' | 'RecordChargeSucceeded' | 'RecordRefundSucceeded' }
  | { type: 'RecordChargeFailed' }
  | { type: 'AppealStake' | 'AcceptAppeal' | 'RefuseAppeal' | 'ReferAppeal' | 'VouchForStake' }
  | { type: 'RefundForLateEvidence' };

// Weighted so that appeals, collections and refunds are reached, not only early completions.
const shapeArb: fc.Arbitrary<Shape> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('RecordHoldPlaced' as const),
      holdHours: fc.integer({ min: 1, max: 200 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('SettleCompleted' as const) }) },
  { weight: 8, arbitrary: fc.record({ type: fc.constantFrom('SettleMissed' as const, 'AppealStake' as const) }) },
  {
    weight: 14,
    arbitrary: fc.record({
      type: fc.constantFrom(
        'RecordHoldExpired' as const,
        'RetryCharge' as const,
        'RecordCaptureSucceeded' as const,
        'RecordChargeSucceeded' as const,
        'RecordChargeFailed' as const,
        'RecordRefundSucceeded' as const,
        'AppealStake' as const,
        'AcceptAppeal' as const,
        'RefuseAppeal' as const,
        'ReferAppeal' as const,
        'VouchForStake' as const,
        'RefundForLateEvidence' as const,
      ),
    }),
  },
);

function toCommand(shape: Shape, now: Temporal.Instant, history: readonly StakeEvent[]): StakeCommand {
  const state = foldEvents(stakeDecider, history);
  switch (shape.type) {
    case 'RecordHoldPlaced':
      return { type: shape.type, paymentIntentId: 'pi_h', captureBefore: now.add({ hours: shape.holdHours }), now };
    case 'RecordCaptureSucceeded':
      return { type: shape.type, capturedCents: 2000, now };
    case 'RecordChargeSucceeded':
      return {
        type: shape.type,
        attempt: state.status === 'charging' ? state.attempt : 1,
        paymentIntentId: 'pi_c',
        capturedCents: 2000,
        now,
      };
    case 'RecordChargeFailed':
      return { type: shape.type, attempt: state.status === 'charging' ? state.attempt : 1, failure: 'declined', now };
    case 'RecordRefundSucceeded': {
      const asked = state.status !== 'none' ? state.refund?.amountCents : undefined;
      return { type: shape.type, refundedCents: asked ?? 2000, now };
    }
    case 'AppealStake':
      return { type: shape.type, userId: 'u1', reason: 'uploaded_late', note: '', runIds: [], now };
    case 'AcceptAppeal':
      return { type: shape.type, decidedBy: 'operator', note: '', now };
    case 'RefuseAppeal':
      return { type: shape.type, note: '', now };
    case 'ReferAppeal':
      return { type: shape.type, evidenceProgress: 4, target: 10, now };
    case 'VouchForStake':
      return { type: shape.type, voucherId: 'friend', now };
    case 'RefundForLateEvidence':
      return { type: shape.type, evidenceRunId: 'run-late', now };
    default:
      return { type: shape.type, now };
  }
}

/** The stake of every sequence: $20 on the week of 2025-03-10 in New York, for a charity or none. */
const opened = (charityId: string | null): StakeEvent => ({
  type: 'StakeOpened',
  data: {
    stakeId: 's1',
    goalId: 'g1',
    userId: 'u1',
    amountCents: 2000,
    charityId,
    paymentMethodId: 'pm1',
    weekStart: '2025-03-10',
    timeZone: 'America/New_York',
    openedAt: OPENED.toString(),
  },
});

const COLLECTING = new Set<StakeEvent['type']>(['StakeCaptureRequested', 'StakeChargeRequested', 'StakeCollected']);

describe('money rules of appeals and refunds, under any sequence of commands', () => {
  it('nothing is collected after an accepted appeal; one refund at most; the ledger is 80% of captures minus refunds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(shapeArb, fc.integer({ min: 0, max: 8 * 60 })), { maxLength: 50 }),
        fc.constantFrom(null, 'charity-1'),
        (steps, charityId) => {
          let now = FIRST_STEP;
          const history: StakeEvent[] = [opened(charityId)];
          for (const [shape, minutes] of steps) {
            now = now.add({ minutes });
            const state = foldEvents(stakeDecider, history);
            const result = stakeDecider.decide(toCommand(shape, now, history), state);
            if (!isRight(result)) continue;
            for (const event of result.right) {
              // Settlement waits for an undecided appeal until its deadline.
              if (COLLECTING.has(event.type) && state.status !== 'none' && state.appeal !== null) {
                const undecided = state.appeal.status === 'open' || state.appeal.status === 'referred';
                if (undecided)
                  expect(
                    Temporal.Instant.compare(now, Temporal.Instant.from(state.appeal.decideBy)),
                  ).toBeGreaterThanOrEqual(0);
              }
              history.push(event);
            }
          }
          const accepted = history.findIndex((e) => e.type === 'StakeAppealAccepted');
          if (accepted >= 0) {
            expect(history.slice(accepted).some((e) => COLLECTING.has(e.type))).toBe(false);
          }
          expect(history.filter((e) => e.type === 'StakeRefundRequested').length).toBeLessThanOrEqual(1);
          expect(history.filter((e) => e.type === 'StakeRefunded').length).toBeLessThanOrEqual(1);
          let captured = 0;
          let donations = 0;
          let refunded = 0;
          for (const e of history) {
            if (e.type === 'StakeCollected') {
              captured += e.data.capturedCents;
              donations += e.data.donationCents;
            }
            if (e.type === 'StakeRefunded') {
              refunded += e.data.refundedCents;
              donations -= e.data.donationRefundCents;
              expect(e.data.donationRefundCents + e.data.feeRefundCents).toBe(e.data.refundedCents);
            }
          }
          expect(refunded).toBeLessThanOrEqual(captured);
          expect(donations).toBe(splitCapture(captured - refunded, charityId !== null).donationCents);
          // A refund only ever follows a collection of a missed week.
          const refundAt = history.findIndex((e) => e.type === 'StakeRefundRequested');
          if (refundAt >= 0) {
            expect(
              history.slice(0, refundAt).some((e) => e.type === 'StakeCollected' && e.data.outcome === 'lost'),
            ).toBe(true);
          }
        },
      ),
      RUNS,
    );
  });
});

describe('late evidence after a collection, under any sequence', () => {
  it('refunds the whole stake at most once, only within 7 days of the collection, the split following the ledger', () => {
    const stepArb = fc.tuple(
      fc.constantFrom(
        'RefundForLateEvidence' as const,
        'RecordRefundSucceeded' as const,
        'AppealStake' as const,
        'AcceptAppeal' as const,
        'SettleMissed' as const,
      ),
      fc.integer({ min: 0, max: 4 * 24 * 60 }),
      fc.constantFrom(2000, 1000, 1),
    );
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 12 }), fc.constantFrom(null, 'charity-1'), (steps, charityId) => {
        const collectedAt = Temporal.Instant.from('2025-03-17T05:00:00Z');
        const history: StakeEvent[] = [opened(charityId)];
        const apply = (command: StakeCommand) => {
          const result = stakeDecider.decide(command, foldEvents(stakeDecider, history));
          if (isRight(result)) history.push(...result.right);
        };
        apply({ type: 'SettleMissed', now: collectedAt });
        apply({
          type: 'RecordChargeSucceeded',
          attempt: 1,
          paymentIntentId: 'pi_c',
          capturedCents: 2000,
          now: collectedAt,
        });
        let now = collectedAt;
        for (const [type, minutes, cents] of steps) {
          now = now.add({ minutes });
          if (type === 'RefundForLateEvidence') {
            const before = history.length;
            apply({ type, evidenceRunId: 'late-run', now });
            if (history.length > before) {
              expect(now.epochMilliseconds - collectedAt.epochMilliseconds).toBeLessThanOrEqual(7 * 24 * 3_600_000);
            }
          } else if (type === 'RecordRefundSucceeded') apply({ type, refundedCents: cents, now });
          else if (type === 'AppealStake')
            apply({ type, userId: 'u1', reason: 'watch_file', note: '', runIds: [], now });
          else if (type === 'AcceptAppeal') apply({ type, decidedBy: 'operator', note: '', now });
          else apply({ type, now });
        }
        const refunds = history.filter((e) => e.type === 'StakeRefunded');
        expect(refunds.length).toBeLessThanOrEqual(1);
        expect(history.filter((e) => e.type === 'StakeRefundRequested').length).toBeLessThanOrEqual(1);
        for (const r of refunds) {
          if (r.type !== 'StakeRefunded') continue;
          expect(r.data.refundedCents).toBe(2000);
          expect(r.data.donationRefundCents).toBe(splitCapture(2000, charityId !== null).donationCents);
          expect(r.data.donationRefundCents + r.data.feeRefundCents).toBe(2000);
        }
        // A stake once collected is never released, appealed or collected again.
        expect(history.filter((e) => e.type === 'StakeCollected').length).toBe(1);
        expect(history.some((e) => e.type === 'StakeReleased' || e.type === 'StakeAppealed')).toBe(false);
      }),
      RUNS,
    );
  });
});
