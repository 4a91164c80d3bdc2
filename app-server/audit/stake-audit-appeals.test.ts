import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { StakeEvent } from '../../domain/stake/events.ts';
import { auditStakes } from './stake-audit.ts';

/* The audit's appeal and refund rules (issue 25) on histories the decider would never write: each must be caught. */

const opened: StakeEvent = {
  type: 'StakeOpened',
  data: {
    stakeId: 's1',
    goalId: 'g1',
    userId: 'u1',
    amountCents: 2000,
    charityId: 'amf',
    paymentMethodId: 'pm',
    weekStart: '2026-11-16',
    timeZone: 'Europe/Berlin',
    openedAt: '2026-11-16T08:00:00Z',
  },
};
const accepted: StakeEvent = {
  type: 'StakeAppealAccepted',
  data: { stakeId: 's1', decidedBy: 'operator', note: '', acceptedAt: '2026-11-23T10:00:00Z' },
};
const collected: StakeEvent = {
  type: 'StakeCollected',
  data: {
    stakeId: 's1',
    outcome: 'lost',
    method: 'charge',
    paymentIntentId: 'pi_1',
    capturedCents: 2000,
    donationCents: 1600,
    feeCents: 400,
    charityId: 'amf',
    collectedAt: '2026-11-23T11:00:00Z',
  },
};
const refund = (cents: number, key: string): StakeEvent => ({
  type: 'StakeRefunded',
  data: {
    stakeId: 's1',
    paymentIntentId: 'pi_1',
    refundedCents: cents,
    donationRefundCents: cents === 2000 ? 1600 : Math.floor((cents * 80) / 100),
    feeRefundCents: cents === 2000 ? 400 : cents - Math.floor((cents * 80) / 100),
    charityId: 'amf',
    reason: 'late evidence',
    idempotencyKey: key,
    refundedAt: '2026-11-25T11:00:00Z',
  },
});

async function* log(events: readonly StakeEvent[]): AsyncIterable<RecordedEvent> {
  let n = 0;
  for (const e of events) {
    n += 1;
    yield { ...e, streamId: 'stake-s1', streamVersion: n, position: { commit: 1n, n: BigInt(n) } } as never;
  }
}

const rules = async (events: readonly StakeEvent[]) => (await auditStakes(log(events))).violations.map((v) => v.rule);

describe('the stake audit, appeals and refunds', () => {
  it('a collection after an accepted appeal is a violation', async () => {
    expect(await rules([opened, accepted, collected])).toContain('StakeCollected after an accepted appeal');
    expect(await rules([opened, collected])).toEqual([]);
  });

  it('the same refund twice is a violation; one refund of the whole stake is not', async () => {
    expect(await rules([opened, collected, refund(2000, 'stake-s1-refund')])).toEqual([]);
    expect(
      await rules([opened, collected, refund(1000, 'stake-s1-refund'), refund(1000, 'stake-s1-refund')]),
    ).toContain('refund stake-s1-refund made twice');
  });
});
