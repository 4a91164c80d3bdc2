import fc from 'fast-check';
import { isRight } from 'fp-ts/Either';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../shared/decider.ts';
import type { StakeCommand } from './commands.ts';
import { stakeDecider } from './decide.ts';
import type { StakeEvent } from './events.ts';
import { isFinal } from './state.ts';

const start = Temporal.Instant.from('2025-03-10T04:00:00Z');

/** A command shape without its time; the sequence supplies a clock that only moves forward. */
type Shape =
  | { type: 'RecordHoldPlaced'; pi: string; holdHours: number }
  | { type: 'RecordHoldFailed' | 'RecordHoldExpired' | 'SettleCompleted' | 'SettleMissed' | 'SettleCanceled' }
  | { type: 'VoidStake' | 'RetryCharge' }
  | { type: 'RecordCaptureSucceeded'; cents: number }
  | { type: 'RecordChargeSucceeded'; attempt: number; cents: number }
  | { type: 'RecordChargeFailed'; attempt: number; failure: 'declined' | 'authentication_required' };

const shapeArb: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({
    type: fc.constant('RecordHoldPlaced' as const),
    pi: fc.constantFrom('pi_1', 'pi_2'),
    holdHours: fc.integer({ min: 1, max: 170 }),
  }),
  fc.record({
    type: fc.constantFrom(
      'RecordHoldFailed' as const,
      'RecordHoldExpired' as const,
      'SettleCompleted' as const,
      'SettleMissed' as const,
      'SettleCanceled' as const,
      'VoidStake' as const,
      'RetryCharge' as const,
    ),
  }),
  fc.record({ type: fc.constant('RecordCaptureSucceeded' as const), cents: fc.constantFrom(1000, 500) }),
  fc.record({
    type: fc.constant('RecordChargeSucceeded' as const),
    attempt: fc.integer({ min: 1, max: 3 }),
    cents: fc.constant(1000),
  }),
  fc.record({
    type: fc.constant('RecordChargeFailed' as const),
    attempt: fc.integer({ min: 1, max: 3 }),
    failure: fc.constantFrom('declined' as const, 'authentication_required' as const),
  }),
);

function toCommand(shape: Shape, now: Temporal.Instant): StakeCommand {
  switch (shape.type) {
    case 'RecordHoldPlaced':
      return { type: shape.type, paymentIntentId: shape.pi, captureBefore: now.add({ hours: shape.holdHours }), now };
    case 'RecordCaptureSucceeded':
      return { type: shape.type, capturedCents: shape.cents, now };
    case 'RecordChargeSucceeded':
      return { type: shape.type, attempt: shape.attempt, paymentIntentId: 'pi_c', capturedCents: shape.cents, now };
    case 'RecordChargeFailed':
      return { type: shape.type, attempt: shape.attempt, failure: shape.failure, now };
    case 'RecordHoldFailed':
      return { type: shape.type, reason: 'card_declined', now };
    default:
      return { type: shape.type, now };
  }
}

const FINAL_EVENTS = new Set<StakeEvent['type']>(['StakeReleased', 'StakeCollected', 'StakeWrittenOff']);

describe('stake properties under any sequence of commands', () => {
  it('a final state at most once; no capture at/after capture_before; nothing taken once the goal was completed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(shapeArb, fc.integer({ min: 0, max: 40 * 60 })), { maxLength: 40 }),
        fc.constantFrom(null, 'c1'),
        (steps, charityId) => {
          let now = start;
          const history: StakeEvent[] = [
            {
              type: 'StakeOpened',
              data: {
                stakeId: 's1',
                goalId: 'g1',
                userId: 'u1',
                amountCents: 1000,
                charityId,
                paymentMethodId: 'pm1',
                weekStart: '2025-03-10',
                timeZone: 'America/New_York',
                openedAt: start.toString(),
              },
            },
          ];
          let finalStatus: string | null = null;
          for (const [shape, minutes] of steps) {
            now = now.add({ minutes });
            const state = foldEvents(stakeDecider, history);
            const result = stakeDecider.decide(toCommand(shape, now), state);
            if (!isRight(result)) continue;
            for (const event of result.right) {
              if (FINAL_EVENTS.has(event.type)) {
                expect(finalStatus).toBeNull(); // reached at most once
              }
              if (event.type === 'StakeCaptureRequested') {
                expect(Temporal.Instant.compare(now, Temporal.Instant.from(event.data.captureBefore))).toBeLessThan(0);
              }
              if (event.type === 'StakeCollected') {
                expect(event.data.donationCents + event.data.feeCents).toBe(event.data.capturedCents);
                expect(event.data.donationCents > 0).toBe(charityId !== null);
              }
              history.push(event);
              const after = foldEvents(stakeDecider, history).status;
              if (finalStatus === null && after !== 'none' && isFinal(after)) finalStatus = after;
            }
            // Once final, the status never changes again.
            if (finalStatus !== null) expect(foldEvents(stakeDecider, history).status).toBe(finalStatus);
          }
          const completed = history.some((e) => e.type === 'StakeReleased' && e.data.outcome === 'succeeded');
          if (completed) {
            expect(
              history.some(
                (e) =>
                  e.type === 'StakeCollected' ||
                  e.type === 'StakeCaptureRequested' ||
                  e.type === 'StakeChargeRequested',
              ),
            ).toBe(false);
          }
          // A capture is only ever recorded after a capture request (which was before the deadline).
          const captureIdx = history.findIndex((e) => e.type === 'StakeCollected' && e.data.method === 'capture');
          if (captureIdx >= 0) {
            expect(history.slice(0, captureIdx).some((e) => e.type === 'StakeCaptureRequested')).toBe(true);
          }
          // Bounded retries: never more than three charge attempts.
          expect(history.filter((e) => e.type === 'StakeChargeRequested').length).toBeLessThanOrEqual(3);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
