import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StakeEvent } from './events.ts';
import { captureCountdownText, emptyHoldTimeline, evolveHoldTimeline, holdIsLive } from './hold-timeline.ts';

const fold = (events: StakeEvent[]) => events.reduce(evolveHoldTimeline, emptyHoldTimeline);

const opened: StakeEvent = {
  type: 'StakeOpened',
  data: {
    stakeId: 's1',
    goalId: 'g1',
    userId: 'u1',
    amountCents: 1000,
    charityId: 'amf',
    paymentMethodId: 'pm_1',
    weekStart: '2026-11-30',
    timeZone: 'America/New_York',
    openedAt: '2026-11-25T12:00:00Z',
  },
};
const placed: StakeEvent = {
  type: 'StakeHoldPlaced',
  data: {
    stakeId: 's1',
    paymentIntentId: 'pi_1',
    captureBefore: '2026-12-07T05:00:00Z',
    idempotencyKey: 'k',
    placedAt: '2026-11-30T05:00:30Z',
  },
};

describe('the hold timeline (GET /stakes `hold`)', () => {
  it('a placed hold is live, with its deadline; a miss captures it with the reason and the split', () => {
    const held = fold([opened, placed]);
    expect(held).toMatchObject({ placed_at: '2026-11-30T05:00:30Z', capture_before: '2026-12-07T05:00:00Z' });
    expect(holdIsLive(held)).toBe(true);
    const captured = fold([
      opened,
      placed,
      {
        type: 'StakeCaptureRequested',
        data: {
          stakeId: 's1',
          outcome: 'lost',
          paymentIntentId: 'pi_1',
          amountCents: 1000,
          captureBefore: '2026-12-07T05:00:00Z',
          idempotencyKey: 'k2',
          requestedAt: '2026-12-07T04:00:00Z',
        },
      },
      {
        type: 'StakeCollected',
        data: {
          stakeId: 's1',
          outcome: 'lost',
          method: 'capture',
          paymentIntentId: 'pi_1',
          capturedCents: 1000,
          donationCents: 800,
          feeCents: 200,
          charityId: 'amf',
          collectedAt: '2026-12-07T04:00:05Z',
        },
      },
    ]);
    expect(holdIsLive(captured)).toBe(false);
    expect(captured.captured_at).toBe('2026-12-07T04:00:05Z');
    expect(captured.steps.map((s) => s.kind)).toEqual(['placed', 'capture_requested', 'captured']);
    expect(captured.steps[2]?.reason).toBe(
      'You missed your goal: $10.00 captured from the hold ($8.00 to your charity, $2.00 service fee).',
    );
  });

  it('a completed goal releases the hold; a refund is a step with its own time and reason', () => {
    const released = fold([
      opened,
      placed,
      {
        type: 'StakeReleased',
        data: {
          stakeId: 's1',
          outcome: 'succeeded',
          paymentIntentId: 'pi_1',
          idempotencyKey: 'k3',
          releasedAt: '2026-12-02T10:00:00Z',
        },
      },
    ]);
    expect(released.released_at).toBe('2026-12-02T10:00:00Z');
    expect(released.steps.at(-1)?.reason).toBe('You completed your goal: the hold is released, nothing is taken.');
    const refunded = evolveHoldTimeline(released, {
      type: 'StakeRefunded',
      data: {
        stakeId: 's1',
        paymentIntentId: 'pi_1',
        refundedCents: 1000,
        donationRefundCents: 800,
        feeRefundCents: 200,
        charityId: 'amf',
        reason: 'your appeal was upheld.',
        idempotencyKey: 'k4',
        refundedAt: '2026-12-09T10:00:00Z',
      },
    });
    expect(refunded.refunded_at).toBe('2026-12-09T10:00:00Z');
    expect(refunded.steps.at(-1)?.reason).toBe('$10.00 given back to your card: your appeal was upheld.');
  });

  it('counts down in whole units, rounded down, and says when the deadline has passed', () => {
    const deadline = '2026-12-07T05:00:00Z';
    const at = (iso: string) => captureCountdownText(deadline, Date.parse(iso));
    expect(at('2026-11-30T05:00:30Z')).toBe('6 days 23 hours left');
    expect(at('2026-12-06T05:00:00Z')).toBe('1 day left');
    expect(at('2026-12-07T03:48:00Z')).toBe('1 hour 12 minutes left');
    expect(at('2026-12-07T04:59:00Z')).toBe('1 minute left');
    expect(at('2026-12-07T04:59:59Z')).toBe('under a minute left');
    expect(at('2026-12-07T05:00:00Z')).toBe('deadline passed');
  });

  it('property: the countdown never promises more time than is left', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 * 86_400_000 }), (leftMs) => {
        const text = captureCountdownText(new Date(1_800_000_000_000 + leftMs).toISOString(), 1_800_000_000_000);
        const n = (unit: string) => Number(new RegExp(`(\\d+) ${unit}`).exec(text)?.[1] ?? 0);
        const promised = n('day') * 86_400_000 + n('hour') * 3_600_000 + n('minute') * 60_000;
        expect(promised).toBeLessThanOrEqual(leftMs);
        expect(leftMs - promised).toBeLessThan(text.includes('day') ? 3_600_000 : 60_000);
      }),
      { numRuns: Number(process.env.COUNTDOWN_RUNS ?? 1000) },
    );
  });
});
