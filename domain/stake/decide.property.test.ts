import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
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

// Weighted so that long paths (expiry, charge failures, retries, write-off) are reached, not only early releases.
const shapeArb: fc.Arbitrary<Shape> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('RecordHoldPlaced' as const),
      pi: fc.constantFrom('pi_1', 'pi_2'),
      holdHours: fc.integer({ min: 1, max: 170 }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constantFrom(
        'RecordHoldFailed' as const,
        'RecordHoldExpired' as const,
        'SettleMissed' as const,
        'SettleCanceled' as const,
        'RetryCharge' as const,
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('SettleCompleted' as const, 'VoidStake' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('RecordCaptureSucceeded' as const), cents: fc.constantFrom(1000, 500) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('RecordChargeSucceeded' as const),
      attempt: fc.integer({ min: 0, max: 3 }), // 0: the attempt in flight
      cents: fc.constant(1000),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('RecordChargeFailed' as const),
      attempt: fc.integer({ min: 0, max: 3 }), // 0: the attempt in flight
      failure: fc.constantFrom('declined' as const, 'authentication_required' as const),
    }),
  },
);

function toCommand(shape: Shape, now: Temporal.Instant, inFlight: number): StakeCommand {
  switch (shape.type) {
    case 'RecordHoldPlaced':
      return { type: shape.type, paymentIntentId: shape.pi, captureBefore: now.add({ hours: shape.holdHours }), now };
    case 'RecordCaptureSucceeded':
      return { type: shape.type, capturedCents: shape.cents, now };
    case 'RecordChargeSucceeded':
      return {
        type: shape.type,
        attempt: shape.attempt || inFlight,
        paymentIntentId: 'pi_c',
        capturedCents: shape.cents,
        now,
      };
    case 'RecordChargeFailed':
      return { type: shape.type, attempt: shape.attempt || inFlight, failure: shape.failure, now };
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
        fc.array(fc.tuple(shapeArb, fc.integer({ min: 0, max: 48 * 60 })), { maxLength: 60 }),
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
            const inFlight = state.status === 'charging' ? state.attempt : 1;
            const result = stakeDecider.decide(toCommand(shape, now, inFlight), state);
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

describe('property: the off-session charge loop is bounded', () => {
  it('at most 3 attempts, retries only when due, written off exactly when all 3 failed, final at most once', () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('fail' as const),
        failure: fc.constantFrom('declined' as const, 'authentication_required' as const),
      }),
      fc.record({ kind: fc.constant('succeed' as const) }),
      fc.record({ kind: fc.constant('retry' as const) }),
      fc.record({ kind: fc.constant('settle' as const) }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(step, fc.integer({ min: 0, max: 100 })), { maxLength: 30 }), (steps) => {
        let now = Temporal.Instant.from('2025-03-17T04:00:00Z');
        const history: StakeEvent[] = [
          {
            type: 'StakeOpened',
            data: {
              stakeId: 's1',
              goalId: 'g1',
              userId: 'u1',
              amountCents: 5000,
              charityId: 'c1',
              paymentMethodId: 'pm1',
              weekStart: '2025-03-10',
              timeZone: 'America/New_York',
              openedAt: now.toString(),
            },
          },
        ];
        const apply = (command: StakeCommand) => {
          const result = stakeDecider.decide(command, foldEvents(stakeDecider, history));
          if (isRight(result)) history.push(...result.right);
          return result;
        };
        apply({ type: 'SettleMissed', now });
        for (const [s, hours] of steps) {
          now = now.add({ hours });
          const state = foldEvents(stakeDecider, history);
          const attempt = state.status === 'charging' ? state.attempt : 1;
          if (s.kind === 'fail') apply({ type: 'RecordChargeFailed', attempt, failure: s.failure, now });
          if (s.kind === 'succeed')
            apply({ type: 'RecordChargeSucceeded', attempt, paymentIntentId: 'pi', capturedCents: 5000, now });
          if (s.kind === 'settle') apply({ type: 'SettleMissed', now });
          if (s.kind === 'retry') {
            const due =
              state.status === 'charge_failed' &&
              Temporal.Instant.compare(now, Temporal.Instant.from(state.nextAttemptAt)) >= 0;
            const result = apply({ type: 'RetryCharge', now });
            if (state.status === 'charge_failed') expect(isRight(result)).toBe(due);
          }
        }
        const requests = history.filter((e) => e.type === 'StakeChargeRequested');
        const failures = history.filter((e) => e.type === 'StakeChargeFailed');
        const finals = history.filter((e) => FINAL_EVENTS.has(e.type));
        expect(requests.length).toBeLessThanOrEqual(3);
        expect(finals.length).toBeLessThanOrEqual(1);
        expect(history.some((e) => e.type === 'StakeWrittenOff')).toBe(failures.length === 3);
        expect(new Set(requests.map((e) => e.type === 'StakeChargeRequested' && e.data.idempotencyKey)).size).toBe(
          requests.length,
        );
      }),
      { numRuns: 1000 },
    );
  });
});
