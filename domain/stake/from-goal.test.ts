import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { GoalEvent } from '../goal/events.ts';
import { stakeCommandFor, stakeIdForGoal } from './from-goal.ts';

const now = Temporal.Instant.from('2025-03-10T04:00:00Z');
const created = (stakeAmountCents: number): GoalEvent => ({
  type: 'GoalCreated',
  data: {
    goalId: 'g1',
    userId: 'u1',
    type: 'count',
    targetValue: 3,
    enteredValue: 3,
    enteredUnit: 'km',
    stakeAmountCents,
    charityId: null,
    paymentMethodId: stakeAmountCents > 0 ? 'pm1' : null,
    timeZone: 'America/New_York',
    weekStart: '2025-03-10',
    weekEnd: '2025-03-16',
    createdAt: now.toString(),
  },
});
const canceled = (stakeForfeited: boolean): GoalEvent => ({
  type: 'GoalCanceled',
  data: { goalId: 'g1', previousStatus: 'active', stakeForfeited, canceledAt: now.toString() },
});

describe('goal events to stake commands', () => {
  it('opens a stake for a staked goal only', () => {
    expect(stakeCommandFor(created(500), now)).toMatchObject({
      type: 'OpenStake',
      stakeId: stakeIdForGoal('g1'),
      amountCents: 500,
    });
    expect(stakeCommandFor(created(0), now)).toBeNull();
  });

  it('completion releases, a miss settles, a forfeiting cancel captures, anything else voids', () => {
    expect(
      stakeCommandFor({ type: 'GoalCompleted', data: { goalId: 'g1', progress: 3, completedAt: '' } }, now)?.type,
    ).toBe('SettleCompleted');
    expect(
      stakeCommandFor({ type: 'GoalMissed', data: { goalId: 'g1', progress: 1, percentage: 33, closedAt: '' } }, now)
        ?.type,
    ).toBe('SettleMissed');
    expect(stakeCommandFor(canceled(true), now)?.type).toBe('SettleCanceled');
    expect(stakeCommandFor(canceled(false), now)?.type).toBe('VoidStake');
    expect(stakeCommandFor({ type: 'GoalDeleted', data: { goalId: 'g1', deletedAt: '' } }, now)?.type).toBe(
      'VoidStake',
    );
  });
});
