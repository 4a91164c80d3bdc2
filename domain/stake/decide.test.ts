import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { given } from '../shared/testing/given-when-then.ts';
import type { OpenStake } from './commands.ts';
import { stakeDecider } from './decide.ts';
import type { StakeEvent } from './events.ts';

const t = (s: string) => Temporal.Instant.from(s);
const monday = t('2025-03-10T04:00:00Z'); // week 2025-03-10 begins in New York
const wednesday = t('2025-03-12T15:00:00Z');
const captureBefore = t('2025-03-14T22:00:00Z'); // ~4 days 18 hours: a merchant-initiated Visa hold
const settlement = t('2025-03-17T04:00:00Z');

const openCommand: OpenStake = {
  type: 'OpenStake',
  stakeId: 's1',
  goalId: 'g1',
  userId: 'u1',
  amountCents: 1000,
  charityId: 'c1',
  paymentMethodId: 'pm1',
  weekStart: '2025-03-10',
  timeZone: 'America/New_York',
  now: monday,
};
const { type: _t, now: _n, ...terms } = openCommand;
const opened: StakeEvent = { type: 'StakeOpened', data: { ...terms, openedAt: monday.toString() } };
const placed: StakeEvent = {
  type: 'StakeHoldPlaced',
  data: {
    stakeId: 's1',
    paymentIntentId: 'pi_1',
    captureBefore: captureBefore.toString(),
    idempotencyKey: 'stake-s1-hold',
    placedAt: monday.toString(),
  },
};
const holdExpired = (now: Temporal.Instant): StakeEvent => ({
  type: 'StakeHoldExpired',
  data: { stakeId: 's1', paymentIntentId: 'pi_1', captureBefore: captureBefore.toString(), expiredAt: now.toString() },
});
const chargeRequested = (
  attempt: number,
  now: Temporal.Instant,
  outcome: 'lost' | 'forfeited' = 'lost',
): StakeEvent => ({
  type: 'StakeChargeRequested',
  data: {
    stakeId: 's1',
    outcome,
    attempt,
    amountCents: 1000,
    paymentMethodId: 'pm1',
    idempotencyKey: `stake-s1-charge-${attempt}`,
    requestedAt: now.toString(),
  },
});
const captureRequested = (outcome: 'lost' | 'forfeited', now: Temporal.Instant): StakeEvent => ({
  type: 'StakeCaptureRequested',
  data: {
    stakeId: 's1',
    outcome,
    paymentIntentId: 'pi_1',
    amountCents: 1000,
    captureBefore: captureBefore.toString(),
    idempotencyKey: 'stake-s1-capture',
    requestedAt: now.toString(),
  },
});
const active = [opened, placed];

describe('opening and holds', () => {
  it('opens a stake without touching money', () => {
    given(stakeDecider).when(openCommand).then([opened]);
  });

  it('refuses a free or off-menu amount', () => {
    const message = 'Please choose a stake of $5, $10, $20, $50 or $100';
    given(stakeDecider)
      .when({ ...openCommand, amountCents: 0 })
      .thenRejects('invalid_stake', message);
    given(stakeDecider)
      .when({ ...openCommand, amountCents: 750 })
      .thenRejects('invalid_stake', message);
  });

  it('refuses to open twice', () => {
    given(stakeDecider, [opened])
      .when(openCommand)
      .thenRejects('stake_exists', 'This stake already exists', 'conflict');
  });

  it('records the hold with the provider deadline and the hold key', () => {
    given(stakeDecider, [opened])
      .when({ type: 'RecordHoldPlaced', paymentIntentId: 'pi_1', captureBefore, now: monday })
      .then([placed]);
  });

  it('a duplicate report of the same hold is a no-op', () => {
    given(stakeDecider, active)
      .when({ type: 'RecordHoldPlaced', paymentIntentId: 'pi_1', captureBefore, now: monday })
      .then([]);
  });

  it('refuses a hold whose deadline has passed', () => {
    given(stakeDecider, [opened])
      .when({ type: 'RecordHoldPlaced', paymentIntentId: 'pi_1', captureBefore: monday, now: monday })
      .thenRejects('hold_already_expired', 'The hold expires before it could be used');
  });

  it('records a failed hold; the stake stands unsecured', () => {
    given(stakeDecider, [opened])
      .when({ type: 'RecordHoldFailed', reason: 'card_declined', now: monday })
      .then([
        {
          type: 'StakeHoldFailed',
          data: {
            stakeId: 's1',
            reason: 'card_declined',
            idempotencyKey: 'stake-s1-hold',
            failedAt: monday.toString(),
          },
        },
      ]);
  });

  it('records the hold as expired from one hour before capture_before, not earlier', () => {
    const edge = captureBefore.subtract({ hours: 1 });
    given(stakeDecider, active)
      .when({ type: 'RecordHoldExpired', now: edge.subtract({ seconds: 1 }) })
      .thenRejects('hold_still_valid', 'The hold is still valid');
    given(stakeDecider, active)
      .when({ type: 'RecordHoldExpired', now: edge })
      .then([holdExpired(edge)]);
  });

  it('commands on an unknown stake are refused', () => {
    given(stakeDecider)
      .when({ type: 'SettleCompleted', now: wednesday })
      .thenRejects('stake_not_found', 'Stake not found', 'not_found');
  });
});

describe('completion releases', () => {
  it('releases the live hold at once when the goal is completed', () => {
    given(stakeDecider, active)
      .when({ type: 'SettleCompleted', now: wednesday })
      .then([
        {
          type: 'StakeReleased',
          data: {
            stakeId: 's1',
            outcome: 'succeeded',
            paymentIntentId: 'pi_1',
            idempotencyKey: 'stake-s1-release',
            releasedAt: wednesday.toString(),
          },
        },
      ]);
  });

  it('an expired hold leaves nothing to release', () => {
    const late = t('2025-03-15T12:00:00Z');
    const events = given(stakeDecider, [...active, holdExpired(late)])
      .when({ type: 'SettleCompleted', now: late })
      .events();
    expect(events).toMatchObject([{ type: 'StakeReleased', data: { outcome: 'succeeded', paymentIntentId: null } }]);
  });

  it('a hold that arrives after completion is released, and the stake stays succeeded', () => {
    const released: StakeEvent = {
      type: 'StakeReleased',
      data: {
        stakeId: 's1',
        outcome: 'succeeded',
        paymentIntentId: null,
        idempotencyKey: 'stake-s1-release',
        releasedAt: monday.toString(),
      },
    };
    given(stakeDecider, [opened, released])
      .when({ type: 'RecordHoldPlaced', paymentIntentId: 'pi_9', captureBefore, now: monday })
      .then([
        {
          type: 'StakeLateHoldReleased',
          data: {
            stakeId: 's1',
            paymentIntentId: 'pi_9',
            idempotencyKey: 'stake-s1-release-pi_9',
            releasedAt: monday.toString(),
          },
        },
      ]);
  });

  it('voiding (goal canceled or deleted while upcoming) ends refunded', () => {
    const events = given(stakeDecider, [opened]).when({ type: 'VoidStake', now: monday }).events();
    expect(events).toMatchObject([{ type: 'StakeReleased', data: { outcome: 'refunded', paymentIntentId: null } }]);
  });

  it('refuses to release a stake being collected', () => {
    given(stakeDecider, [...active, captureRequested('forfeited', wednesday)])
      .when({ type: 'SettleCompleted', now: wednesday })
      .thenRejects('stake_being_collected', 'This stake is already being collected');
  });
});

describe('a miss or a cancel collects', () => {
  it('a cancel while the hold is live captures it as forfeited', () => {
    given(stakeDecider, active)
      .when({ type: 'SettleCanceled', now: wednesday })
      .then([captureRequested('forfeited', wednesday)]);
  });

  it('the capture splits 80/20 to the charity', () => {
    given(stakeDecider, [...active, captureRequested('forfeited', wednesday)])
      .when({ type: 'RecordCaptureSucceeded', capturedCents: 1000, now: wednesday })
      .then([
        {
          type: 'StakeCollected',
          data: {
            stakeId: 's1',
            outcome: 'forfeited',
            method: 'capture',
            paymentIntentId: 'pi_1',
            capturedCents: 1000,
            donationCents: 800,
            feeCents: 200,
            charityId: 'c1',
            collectedAt: wednesday.toString(),
          },
        },
      ]);
  });

  it('refuses a capture of another amount, or with no capture pending', () => {
    given(stakeDecider, [...active, captureRequested('forfeited', wednesday)])
      .when({ type: 'RecordCaptureSucceeded', capturedCents: 500, now: wednesday })
      .thenRejects('wrong_amount', 'The amount collected must equal the stake');
    given(stakeDecider, active)
      .when({ type: 'RecordCaptureSucceeded', capturedCents: 1000, now: wednesday })
      .thenRejects('no_capture_pending', 'No capture is pending for this stake');
  });

  it('a capture that missed the deadline falls back to an off-session charge', () => {
    const late = captureBefore.add({ minutes: 5 });
    given(stakeDecider, [...active, captureRequested('forfeited', wednesday)])
      .when({ type: 'RecordHoldExpired', now: late })
      .then([holdExpired(late), chargeRequested(1, late, 'forfeited')]);
  });

  it('a miss is never settled before the settlement moment', () => {
    given(stakeDecider, active)
      .when({ type: 'SettleMissed', now: settlement.subtract({ seconds: 1 }) })
      .thenRejects('stake_too_early', 'This stake cannot be settled before its week has ended');
  });

  it('a miss at settlement, after the hold lapsed, records the expiry and charges off-session', () => {
    given(stakeDecider, active)
      .when({ type: 'SettleMissed', now: settlement })
      .then([holdExpired(settlement), chargeRequested(1, settlement)]);
  });

  it('a miss with a hold still usable (customer-initiated, 7 days) captures it', () => {
    const longHold: StakeEvent = { ...placed, data: { ...placed.data, captureBefore: '2025-03-17T10:00:00Z' } };
    const events = given(stakeDecider, [opened, longHold]).when({ type: 'SettleMissed', now: settlement }).events();
    expect(events.map((e) => e.type)).toEqual(['StakeCaptureRequested']);
  });

  it('a miss on an unsecured stake charges off-session; repeating the settlement changes nothing', () => {
    const unsecured = [...active, holdExpired(t('2025-03-14T21:00:00Z'))];
    given(stakeDecider, unsecured)
      .when({ type: 'SettleMissed', now: settlement })
      .then([chargeRequested(1, settlement)]);
    given(stakeDecider, [...unsecured, chargeRequested(1, settlement)])
      .when({ type: 'SettleMissed', now: settlement })
      .then([]);
  });
});

describe('off-session charges: recorded, retried on a schedule, then written off', () => {
  const charging = [...active, holdExpired(settlement), chargeRequested(1, settlement)];
  const failed = (attempt: number, now: Temporal.Instant, next: Temporal.Instant | null): StakeEvent => ({
    type: 'StakeChargeFailed',
    data: {
      stakeId: 's1',
      attempt,
      failure: 'authentication_required',
      nextAttemptAt: next === null ? null : next.toString(),
      failedAt: now.toString(),
    },
  });

  it('a successful charge collects and splits', () => {
    const events = given(stakeDecider, charging)
      .when({
        type: 'RecordChargeSucceeded',
        attempt: 1,
        paymentIntentId: 'pi_2',
        capturedCents: 1000,
        now: settlement,
      })
      .events();
    expect(events).toMatchObject([
      { type: 'StakeCollected', data: { outcome: 'lost', method: 'charge', donationCents: 800, feeCents: 200 } },
    ]);
  });

  it('refuses a success for another attempt', () => {
    given(stakeDecider, charging)
      .when({
        type: 'RecordChargeSucceeded',
        attempt: 2,
        paymentIntentId: 'pi_2',
        capturedCents: 1000,
        now: settlement,
      })
      .thenRejects('no_charge_pending', 'No charge is pending for this stake');
  });

  it('a failure schedules the next attempt a day later; a duplicate failure report is a no-op', () => {
    const next = settlement.add({ hours: 24 });
    given(stakeDecider, charging)
      .when({ type: 'RecordChargeFailed', attempt: 1, failure: 'authentication_required', now: settlement })
      .then([failed(1, settlement, next)]);
    given(stakeDecider, [...charging, failed(1, settlement, next)])
      .when({ type: 'RecordChargeFailed', attempt: 1, failure: 'declined', now: settlement })
      .then([]);
  });

  it('a declined charge keeps the issuer’s reason for the runner', () => {
    const next = settlement.add({ hours: 24 });
    given(stakeDecider, charging)
      .when({
        type: 'RecordChargeFailed',
        attempt: 1,
        failure: 'declined',
        declineCode: 'insufficient_funds',
        now: settlement,
      })
      .then([
        {
          type: 'StakeChargeFailed',
          data: {
            stakeId: 's1',
            attempt: 1,
            failure: 'declined',
            declineCode: 'insufficient_funds',
            nextAttemptAt: next.toString(),
            failedAt: settlement.toString(),
          },
        },
      ]);
  });

  it('the retry is refused before it is due and requested with a new key when due', () => {
    const next = settlement.add({ hours: 24 });
    const history = [...charging, failed(1, settlement, next)];
    given(stakeDecider, history)
      .when({ type: 'RetryCharge', now: next.subtract({ seconds: 1 }) })
      .thenRejects('retry_not_due', 'The next charge attempt is not due yet');
    given(stakeDecider, history)
      .when({ type: 'RetryCharge', now: next })
      .then([chargeRequested(2, next)]);
    given(stakeDecider, active)
      .when({ type: 'RetryCharge', now: next })
      .thenRejects('no_charge_pending', 'No charge is pending for this stake');
  });

  it('after the third failure the stake is written off', () => {
    const d2 = settlement.add({ hours: 24 });
    const d3 = d2.add({ hours: 72 });
    const history = [
      ...charging,
      failed(1, settlement, d2),
      chargeRequested(2, d2),
      failed(2, d2, d3),
      chargeRequested(3, d3),
    ];
    given(stakeDecider, history)
      .when({ type: 'RecordChargeFailed', attempt: 3, failure: 'authentication_required', now: d3 })
      .then([
        failed(3, d3, null),
        { type: 'StakeWrittenOff', data: { stakeId: 's1', attempts: 3, writtenOffAt: d3.toString() } },
      ]);
  });

  it('a settled stake acknowledges further commands with no events', () => {
    const collected: StakeEvent = {
      type: 'StakeCollected',
      data: {
        stakeId: 's1',
        outcome: 'lost',
        method: 'charge',
        paymentIntentId: 'pi_2',
        capturedCents: 1000,
        donationCents: 800,
        feeCents: 200,
        charityId: 'c1',
        collectedAt: settlement.toString(),
      },
    };
    for (const command of [
      { type: 'SettleCompleted' as const, now: settlement },
      { type: 'SettleMissed' as const, now: settlement },
      { type: 'RetryCharge' as const, now: settlement },
      { type: 'RecordHoldPlaced' as const, paymentIntentId: 'pi_1', captureBefore, now: settlement },
    ]) {
      given(stakeDecider, [...charging, collected])
        .when(command)
        .then([]);
    }
  });
});
