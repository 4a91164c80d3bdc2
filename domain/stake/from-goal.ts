import type { Temporal } from 'temporal-polyfill';
import type { GoalEvent } from '../goal/events.ts';
import type { StakeCommand } from './commands.ts';

/** One stake per goal: its id is derived from the goal's, so the process manager that opens it is idempotent. */
export function stakeIdForGoal(goalId: string): string {
  return `goal-${goalId}`;
}

/**
 * The stake command a goal event calls for, or null. GoalActivated is not here: placing the hold is a provider call
 * made by the hold process manager, which then records RecordHoldPlaced / RecordHoldFailed.
 */
export function stakeCommandFor(event: GoalEvent, now: Temporal.Instant): StakeCommand | null {
  switch (event.type) {
    case 'GoalCreated': {
      const d = event.data;
      if (d.stakeAmountCents === 0 || d.paymentMethodId === null) return null;
      return {
        type: 'OpenStake',
        stakeId: stakeIdForGoal(d.goalId),
        goalId: d.goalId,
        userId: d.userId,
        amountCents: d.stakeAmountCents,
        charityId: d.charityId,
        paymentMethodId: d.paymentMethodId,
        weekStart: d.weekStart,
        timeZone: d.timeZone,
        now,
      };
    }
    case 'GoalCompleted':
      return { type: 'SettleCompleted', now };
    case 'GoalMissed':
      return { type: 'SettleMissed', now };
    case 'GoalCanceled':
      return event.data.stakeForfeited ? { type: 'SettleCanceled', now } : { type: 'VoidStake', now };
    case 'GoalDeleted':
      return { type: 'VoidStake', now };
    case 'GoalActivated':
    case 'GoalProgressRecorded': // older streams only
    // A released hold is never taken back (goal/decide.ts "Completion and deleted runs"); a closed week changes no money.
    case 'GoalCompletionWithdrawn':
    case 'GoalWeekClosed':
      return null;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
