import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { given } from '../shared/testing/given-when-then.ts';
import type { CreateGoal } from './commands.ts';
import { goalDecider } from './decide.ts';
import type { GoalCreated, GoalEvent } from './events.ts';

const at = (s: string) => Temporal.Instant.from(s);
const wednesday = at('2025-03-12T15:00:00Z'); // Wed 11:00 in New York, week of 2025-03-10

const create = (over: Partial<CreateGoal> = {}): CreateGoal => ({
  type: 'CreateGoal',
  goalId: 'g1',
  userId: 'u1',
  goalType: 'distance',
  targetValue: 20,
  unit: 'km',
  stakeAmountCents: 1000,
  charityId: 'c1',
  paymentMethodId: 'pm1',
  timeZone: 'America/New_York',
  start: 'this_week',
  now: wednesday,
  ...over,
});

const created = (over: Partial<GoalCreated['data']> = {}): GoalCreated => ({
  type: 'GoalCreated',
  data: {
    goalId: 'g1',
    userId: 'u1',
    type: 'distance',
    targetValue: 20,
    enteredValue: 20,
    enteredUnit: 'km',
    stakeAmountCents: 1000,
    charityId: 'c1',
    paymentMethodId: 'pm1',
    timeZone: 'America/New_York',
    weekStart: '2025-03-10',
    weekEnd: '2025-03-16',
    createdAt: wednesday.toString(),
    ...over,
  },
});
const activated: GoalEvent = {
  type: 'GoalActivated',
  data: { goalId: 'g1', weekStart: '2025-03-10', activatedAt: wednesday.toString() },
};
const active = [created(), activated];
const now = wednesday.add({ hours: 1 });

describe('CreateGoal', () => {
  it('creates an active goal for this week', () => {
    given(goalDecider).when(create()).then(active);
  });

  it('creates an upcoming goal from next Monday', () => {
    given(goalDecider)
      .when(create({ start: 'next_week' }))
      .then([created({ weekStart: '2025-03-17', weekEnd: '2025-03-23' })]);
  });

  it('stores a distance in miles as km with 2 decimals, keeping what was typed', () => {
    const [event] = given(goalDecider)
      .when(create({ targetValue: 10, unit: 'mi' }))
      .events();
    expect(event?.type === 'GoalCreated' && [event.data.targetValue, event.data.enteredUnit]).toEqual([16.09, 'mi']);
  });

  it('the week is the one of the user zone: Sunday night in Honolulu is Monday in Auckland', () => {
    const t = at('2025-03-09T12:00:00Z');
    const weekOf = (timeZone: string) => {
      const [e] = given(goalDecider)
        .when(create({ timeZone, now: t }))
        .events();
      return e?.type === 'GoalCreated' ? e.data.weekStart : null;
    };
    expect(weekOf('Pacific/Honolulu')).toBe('2025-03-03');
    expect(weekOf('Pacific/Auckland')).toBe('2025-03-10');
  });

  it('a free goal keeps neither charity nor card', () => {
    given(goalDecider)
      .when(create({ stakeAmountCents: 0, charityId: null, paymentMethodId: 'pm1', start: 'next_week' }))
      .then([
        created({
          stakeAmountCents: 0,
          charityId: null,
          paymentMethodId: null,
          weekStart: '2025-03-17',
          weekEnd: '2025-03-23',
        }),
      ]);
  });

  it.each([
    [{ targetValue: 0 }, 'Please enter a valid target value greater than 0'],
    [{ targetValue: -3 }, 'Please enter a valid target value greater than 0'],
    [{ targetValue: Number.NaN }, 'Please enter a valid target value greater than 0'],
    [{ targetValue: 804.68 }, 'Distance goal cannot exceed 804.67 km per week'],
    [{ targetValue: 500.1, unit: 'mi' as const }, 'Distance goal cannot exceed 500 mi per week'],
    [{ goalType: 'count' as const, targetValue: 51 }, 'Run count goal cannot exceed 50 runs per week'],
    [{ goalType: 'count' as const, targetValue: 2.5 }, 'Run count must be a whole number'],
  ])('refuses the target %o', (over, message) => {
    given(goalDecider).when(create(over)).thenRejects('invalid_target', message, 'invalid');
  });

  it('accepts the limits themselves', () => {
    given(goalDecider)
      .when(create({ targetValue: 804.67 }))
      .events();
    given(goalDecider)
      .when(create({ targetValue: 500, unit: 'mi' }))
      .events();
    given(goalDecider)
      .when(create({ goalType: 'count', targetValue: 50 }))
      .events();
  });

  it('refuses a stake outside the options', () => {
    given(goalDecider)
      .when(create({ stakeAmountCents: 1500 }))
      .thenRejects('invalid_stake', 'Please choose a stake of $0, $5, $10, $20, $50 or $100');
  });

  it('refuses a charity without a stake', () => {
    given(goalDecider)
      .when(create({ stakeAmountCents: 0 }))
      .thenRejects('charity_without_stake', 'A charity can only be chosen when there is a stake');
  });

  it('refuses a stake without a payment method', () => {
    given(goalDecider)
      .when(create({ paymentMethodId: null }))
      .thenRejects('payment_method_required', 'Please add a payment method to put money on the line');
  });

  it('refuses an unknown time zone', () => {
    given(goalDecider)
      .when(create({ timeZone: 'Mars/Olympus' }))
      .thenRejects('invalid_time_zone', 'Please choose a valid time zone');
  });

  it('refuses to create twice', () => {
    given(goalDecider, active).when(create()).thenRejects('goal_exists', 'This goal already exists', 'conflict');
  });
});

describe('ActivateGoal', () => {
  const upcoming = [created({ weekStart: '2025-03-17', weekEnd: '2025-03-23' })];
  const monday = at('2025-03-17T04:00:00Z');

  it('activates at the week start in the goal zone', () => {
    given(goalDecider, upcoming)
      .when({ type: 'ActivateGoal', now: monday })
      .then([
        { type: 'GoalActivated', data: { goalId: 'g1', weekStart: '2025-03-17', activatedAt: monday.toString() } },
      ]);
  });

  it('refuses before the week starts', () => {
    given(goalDecider, upcoming)
      .when({ type: 'ActivateGoal', now: monday.subtract({ seconds: 1 }) })
      .thenRejects('week_not_started', 'This goal’s week has not started yet');
  });

  it('is a no-op once active', () => {
    given(goalDecider, active).when({ type: 'ActivateGoal', now }).then([]);
  });

  it('refuses an unknown goal', () => {
    given(goalDecider).when({ type: 'ActivateGoal', now }).thenRejects('goal_not_found', 'Goal not found', 'not_found');
  });
});

describe('RecordProgress', () => {
  it('a figure below the target changes nothing; the week closes with it, its percentage floored', () => {
    given(goalDecider, active).when({ type: 'RecordProgress', progress: 9.99, now }).then([]);
    given(goalDecider, active)
      .when({ type: 'CloseWeek', progress: 9.99, now: at('2025-03-17T04:00:00Z') })
      .then([
        {
          type: 'GoalMissed',
          data: { goalId: 'g1', progress: 9.99, percentage: 49, closedAt: '2025-03-17T04:00:00Z' },
        },
      ]);
  });

  it('completes once when progress reaches 100%', () => {
    const reached: GoalEvent[] = [
      { type: 'GoalCompleted', data: { goalId: 'g1', progress: 20, completedAt: now.toString() } },
    ];
    given(goalDecider, active).when({ type: 'RecordProgress', progress: 20, now }).then(reached);
    given(goalDecider, [...active, ...reached])
      .when({ type: 'RecordProgress', progress: 25, now })
      .then([]);
  });

  it('a deleted run that takes progress below the target before settlement withdraws the completion', () => {
    const reached: GoalEvent[] = [
      { type: 'GoalCompleted', data: { goalId: 'g1', progress: 20, completedAt: now.toString() } },
    ];
    const withdrawn: GoalEvent[] = [
      {
        type: 'GoalCompletionWithdrawn',
        data: { goalId: 'g1', progress: 5, percentage: 25, withdrawnAt: now.toString() },
      },
    ];
    given(goalDecider, [...active, ...reached])
      .when({ type: 'RecordProgress', progress: 5, now })
      .then(withdrawn);
    // Active again: it completes again when the runs add up again, and misses at settlement if they do not.
    const again = given(goalDecider, [...active, ...reached, ...withdrawn])
      .when({ type: 'RecordProgress', progress: 21, now })
      .events();
    expect(again.map((e) => e.type)).toEqual(['GoalCompleted']);
    given(goalDecider, [...active, ...reached, ...withdrawn])
      .when({ type: 'CloseWeek', progress: 5, now: at('2025-03-17T04:00:00Z') })
      .then([
        { type: 'GoalMissed', data: { goalId: 'g1', progress: 5, percentage: 25, closedAt: '2025-03-17T04:00:00Z' } },
      ]);
  });

  it('a stream written when every figure was recorded (GoalProgressRecorded) still folds and closes', () => {
    const recorded = (progress: number): GoalEvent => ({
      type: 'GoalProgressRecorded',
      data: { goalId: 'g1', progress, percentage: progress * 5, recordedAt: now.toString() },
    });
    const completed: GoalEvent = {
      type: 'GoalCompleted',
      data: { goalId: 'g1', progress: 20, completedAt: now.toString() },
    };
    given(goalDecider, [...active, recorded(10), recorded(20), completed])
      .when({ type: 'RecordProgress', progress: 20, now })
      .then([]);
    given(goalDecider, [...active, recorded(10), recorded(20), completed])
      .when({ type: 'CloseWeek', progress: 20, now: at('2025-03-17T04:00:00Z') })
      .then([
        {
          type: 'GoalWeekClosed',
          data: { goalId: 'g1', progress: 20, percentage: 100, closedAt: '2025-03-17T04:00:00Z' },
        },
      ]);
  });

  it('after a completed week is closed, nothing changes it', () => {
    const closed: GoalEvent[] = [
      { type: 'GoalCompleted', data: { goalId: 'g1', progress: 20, completedAt: now.toString() } },
      {
        type: 'GoalWeekClosed',
        data: { goalId: 'g1', progress: 20, percentage: 100, closedAt: '2025-03-17T04:00:00Z' },
      },
    ];
    given(goalDecider, [...active, ...closed])
      .when({ type: 'RecordProgress', progress: 5, now })
      .then([]);
    given(goalDecider, [...active, ...closed])
      .when({ type: 'RecordProgress', progress: 30, now })
      .then([]);
  });

  it('a float sum of 2-decimal distances that meets the target completes', () => {
    const events = given(goalDecider, active)
      .when({ type: 'RecordProgress', progress: 0.1 + 0.2 + 19.7, now })
      .events();
    expect(events.map((e) => e.type)).toContain('GoalCompleted');
  });

  it('is a no-op when unchanged', () => {
    given(goalDecider, active).when({ type: 'RecordProgress', progress: 0, now }).then([]);
  });

  it('refuses negative progress', () => {
    given(goalDecider, active)
      .when({ type: 'RecordProgress', progress: -1, now })
      .thenRejects('invalid_progress', 'Progress must be a number of at least 0');
  });

  it('refuses an upcoming goal', () => {
    given(goalDecider, [created()])
      .when({ type: 'RecordProgress', progress: 1, now })
      .thenRejects('goal_not_active', 'This goal is not active');
  });

  it('refuses a closed goal', () => {
    const canceled: GoalEvent = {
      type: 'GoalCanceled',
      data: { goalId: 'g1', previousStatus: 'active', stakeForfeited: true, canceledAt: now.toString() },
    };
    given(goalDecider, [...active, canceled])
      .when({ type: 'RecordProgress', progress: 1, now })
      .thenRejects('goal_closed', 'This goal is already closed');
  });
});

describe('CloseWeek', () => {
  const nySettlement = at('2025-03-17T04:00:00Z');

  it('misses an active goal at the settlement moment', () => {
    given(goalDecider, active)
      .when({ type: 'CloseWeek', progress: 0, now: nySettlement })
      .then([
        { type: 'GoalMissed', data: { goalId: 'g1', progress: 0, percentage: 0, closedAt: nySettlement.toString() } },
      ]);
  });

  it('refuses before the week is over', () => {
    given(goalDecider, active)
      .when({ type: 'CloseWeek', progress: 0, now: nySettlement.subtract({ seconds: 1 }) })
      .thenRejects('week_not_over', 'This goal’s week has not ended yet');
  });

  it('never closes a Honolulu goal at the New York moment', () => {
    const honolulu = [created({ timeZone: 'Pacific/Honolulu' }), activated];
    given(goalDecider, honolulu)
      .when({ type: 'CloseWeek', progress: 0, now: nySettlement })
      .thenRejects('week_not_over', 'This goal’s week has not ended yet');
    given(goalDecider, honolulu)
      .when({ type: 'CloseWeek', progress: 0, now: at('2025-03-17T10:00:00Z') })
      .events();
  });

  it('an Auckland goal whose week ended still waits for the New York moment', () => {
    const auckland = [created({ timeZone: 'Pacific/Auckland' }), activated];
    given(goalDecider, auckland)
      .when({ type: 'CloseWeek', progress: 0, now: at('2025-03-16T12:00:00Z') })
      .thenRejects('week_not_over', 'This goal’s week has not ended yet');
  });

  it('closes a completed goal at the settlement moment, once, and not before', () => {
    const completed: GoalEvent = {
      type: 'GoalCompleted',
      data: { goalId: 'g1', progress: 20, completedAt: now.toString() },
    };
    const closed: GoalEvent = {
      type: 'GoalWeekClosed',
      data: { goalId: 'g1', progress: 20, percentage: 100, closedAt: nySettlement.toString() },
    };
    given(goalDecider, [...active, completed])
      .when({ type: 'CloseWeek', progress: 20, now: nySettlement })
      .then([closed]);
    given(goalDecider, [...active, completed, closed])
      .when({ type: 'CloseWeek', progress: 20, now: nySettlement })
      .then([]);
    given(goalDecider, [...active, completed])
      .when({ type: 'CloseWeek', progress: 20, now: nySettlement.subtract({ seconds: 1 }) })
      .thenRejects('week_not_over', 'This goal’s week has not ended yet');
  });

  it('refuses an upcoming goal', () => {
    given(goalDecider, [created()])
      .when({ type: 'CloseWeek', progress: 0, now: nySettlement })
      .thenRejects('goal_not_active', 'This goal is not active');
  });
});

describe('CancelGoal and DeleteUpcomingGoal', () => {
  const cancel = { type: 'CancelGoal' as const, userId: 'u1', now };

  it('canceling an active staked goal forfeits the stake', () => {
    given(goalDecider, active)
      .when(cancel)
      .then([
        {
          type: 'GoalCanceled',
          data: { goalId: 'g1', previousStatus: 'active', stakeForfeited: true, canceledAt: now.toString() },
        },
      ]);
  });

  it('canceling an upcoming goal forfeits nothing (no hold yet, week not begun)', () => {
    given(goalDecider, [created()])
      .when(cancel)
      .then([
        {
          type: 'GoalCanceled',
          data: { goalId: 'g1', previousStatus: 'upcoming', stakeForfeited: false, canceledAt: now.toString() },
        },
      ]);
  });

  it('canceling a free goal forfeits nothing', () => {
    const events = given(goalDecider, [created({ stakeAmountCents: 0, charityId: null }), activated])
      .when(cancel)
      .events();
    expect(events[0]?.type === 'GoalCanceled' && events[0].data.stakeForfeited).toBe(false);
  });

  it('only the owner cancels', () => {
    given(goalDecider, active)
      .when({ ...cancel, userId: 'u2' })
      .thenRejects('not_goal_owner', 'You can only change your own goals', 'forbidden');
  });

  it('a completed goal cannot be canceled', () => {
    const completed: GoalEvent = {
      type: 'GoalCompleted',
      data: { goalId: 'g1', progress: 20, completedAt: now.toString() },
    };
    given(goalDecider, [...active, completed])
      .when(cancel)
      .thenRejects('goal_not_cancelable', 'Only an upcoming or active goal can be canceled');
  });

  it('refuses to cancel an unknown goal', () => {
    given(goalDecider).when(cancel).thenRejects('goal_not_found', 'Goal not found');
  });

  it('deletes an upcoming goal', () => {
    given(goalDecider, [created()])
      .when({ type: 'DeleteUpcomingGoal', userId: 'u1', now })
      .then([{ type: 'GoalDeleted', data: { goalId: 'g1', deletedAt: now.toString() } }]);
  });

  it('refuses to delete an active goal, another user’s goal or an unknown one', () => {
    given(goalDecider, active)
      .when({ type: 'DeleteUpcomingGoal', userId: 'u1', now })
      .thenRejects('goal_not_deletable', 'Only an upcoming goal can be deleted');
    given(goalDecider, [created()])
      .when({ type: 'DeleteUpcomingGoal', userId: 'u2', now })
      .thenRejects('not_goal_owner', 'You can only change your own goals');
    given(goalDecider)
      .when({ type: 'DeleteUpcomingGoal', userId: 'u1', now })
      .thenRejects('goal_not_found', 'Goal not found');
  });
});
