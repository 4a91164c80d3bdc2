import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../shared/decider.ts';
import { given } from '../shared/testing/given-when-then.ts';
import { hasWeekStartedInZone } from '../shared/week.ts';
import type { CreateGoal, GoalCommand } from './commands.ts';
import { decideCreateGoal } from './create-goal.ts';
import { goalDecider } from './decide.ts';
import type { GoalEvent } from './events.ts';
import { type ReleaseGoalWeek, type UserGoalsEvent, userGoalsDecider } from './user-goals.ts';

const wednesday = Temporal.Instant.from('2025-03-12T15:00:00Z');
const reserve = (goalId: string, weekStart: string) => ({
  type: 'ReserveGoalWeek' as const,
  goalId,
  weekStart,
  timeZone: 'America/New_York',
  now: wednesday,
});
const reserved = (goalId: string, weekStart: string, timeZone = 'America/New_York'): UserGoalsEvent => ({
  type: 'GoalWeekReserved',
  data: { goalId, weekStart, timeZone },
});

describe('user goal index', () => {
  it('reserves a free week', () => {
    given(userGoalsDecider)
      .when(reserve('g1', '2025-03-10'))
      .then([reserved('g1', '2025-03-10')]);
  });

  it('refuses a second goal for this week', () => {
    given(userGoalsDecider, [reserved('g1', '2025-03-10')])
      .when(reserve('g2', '2025-03-10'))
      .thenRejects('goal_exists_this_week', 'You already have a goal for this week', 'conflict');
  });

  it('refuses a second upcoming goal', () => {
    given(userGoalsDecider, [reserved('g1', '2025-03-17')])
      .when(reserve('g2', '2025-03-17'))
      .thenRejects('upcoming_goal_exists', 'You already have an upcoming goal', 'conflict');
  });

  it('allows one active and one upcoming', () => {
    given(userGoalsDecider, [reserved('g1', '2025-03-10')])
      .when(reserve('g2', '2025-03-17'))
      .then([reserved('g2', '2025-03-17')]);
  });

  it('compares weeks as real time: after moving from Honolulu to Auckland, the overlapping week is taken', () => {
    const sunday = Temporal.Instant.from('2025-03-16T12:00:00Z'); // Sun 02:00 Honolulu, Mon 01:00 Auckland
    given(userGoalsDecider, [reserved('g1', '2025-03-10', 'Pacific/Honolulu')])
      .when({ ...reserve('g2', '2025-03-17'), timeZone: 'Pacific/Auckland', now: sunday })
      .thenRejects('goal_exists_this_week', 'You already have a goal for this week');
    given(userGoalsDecider, [reserved('g1', '2025-03-17', 'Pacific/Honolulu')])
      .when({ ...reserve('g2', '2025-03-24'), timeZone: 'Pacific/Auckland', now: sunday })
      .thenRejects('upcoming_goal_exists', 'You already have an upcoming goal');
  });

  it('is idempotent per goal id (a retried handler)', () => {
    given(userGoalsDecider, [reserved('g1', '2025-03-17')])
      .when(reserve('g1', '2025-03-17'))
      .then([]);
  });

  it('a canceled or deleted goal frees its week', () => {
    const released: UserGoalsEvent = { type: 'GoalWeekReleased', data: { goalId: 'g1' } };
    given(userGoalsDecider, [reserved('g1', '2025-03-17')])
      .when({ type: 'ReleaseGoalWeek', goalId: 'g1' })
      .then([released]);
    given(userGoalsDecider, [reserved('g1', '2025-03-17'), released])
      .when(reserve('g2', '2025-03-17'))
      .then([reserved('g2', '2025-03-17')]);
    given(userGoalsDecider).when({ type: 'ReleaseGoalWeek', goalId: 'g9' }).then([]);
  });

  it('goal validation comes before the index: the user sees what was wrong with their input', () => {
    const index = foldEvents(userGoalsDecider, [reserved('g1', '2025-03-10')]);
    const command: CreateGoal = {
      type: 'CreateGoal',
      goalId: 'g2',
      userId: 'u1',
      goalType: 'count',
      targetValue: 0,
      unit: 'km',
      stakeAmountCents: 0,
      charityId: null,
      paymentMethodId: null,
      timeZone: 'America/New_York',
      start: 'this_week',
      now: wednesday,
    };
    const result = decideCreateGoal(command, index);
    expect(!isRight(result) && result.left.code).toBe('invalid_target');
    const duplicate = decideCreateGoal({ ...command, targetValue: 3 }, index);
    expect(!isRight(duplicate) && duplicate.left.message).toBe('You already have a goal for this week');
  });
});

/** The index command a goal event calls for, as the lifecycle process issues it: cancel and delete free the week. */
const releaseFor = (event: GoalEvent): ReleaseGoalWeek | null =>
  event.type === 'GoalCanceled' || event.type === 'GoalDeleted'
    ? { type: 'ReleaseGoalWeek', goalId: event.data.goalId }
    : null;

/** A user's actions and the clock, applied through the same two-stream flow the handler uses. */
type Step =
  | { kind: 'create'; start: 'this_week' | 'next_week'; zone: string }
  | { kind: 'cancel' | 'delete' | 'close'; pick: number }
  | { kind: 'advance'; hours: number; activate: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    start: fc.constantFrom('this_week' as const, 'next_week' as const),
    zone: fc.constantFrom('America/New_York', 'Pacific/Auckland', 'Pacific/Honolulu'),
  }),
  fc.record({ kind: fc.constantFrom('cancel' as const, 'delete' as const, 'close' as const), pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 80 }), activate: fc.boolean() }),
);

function simulate(steps: readonly Step[], check: (goals: GoalEvent[][], now: Temporal.Instant) => void): void {
  let now = wednesday;
  let index: UserGoalsEvent[] = [];
  const goals: GoalEvent[][] = [];
  const run = (i: number, command: GoalCommand) => {
    const stream = goals[i];
    if (stream === undefined) return;
    const result = goalDecider.decide(command, foldEvents(goalDecider, stream));
    if (!isRight(result)) return;
    stream.push(...result.right);
    for (const event of result.right) {
      const release = releaseFor(event);
      if (release === null) continue;
      const freed = userGoalsDecider.decide(release, foldEvents(userGoalsDecider, index));
      if (isRight(freed)) index = [...index, ...freed.right];
    }
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'create': {
        const command: CreateGoal = {
          type: 'CreateGoal',
          goalId: `g${goals.length}`,
          userId: 'u1',
          goalType: 'count',
          targetValue: 3,
          unit: 'km',
          stakeAmountCents: 500,
          charityId: null,
          paymentMethodId: 'pm',
          timeZone: step.zone,
          start: step.start,
          now,
        };
        const result = decideCreateGoal(command, foldEvents(userGoalsDecider, index));
        if (isRight(result)) {
          index = [...index, ...result.right.indexEvents];
          goals.push([...result.right.goalEvents]);
        }
        break;
      }
      case 'cancel':
        run(step.pick, { type: 'CancelGoal', userId: 'u1', now });
        break;
      case 'delete':
        run(step.pick, { type: 'DeleteUpcomingGoal', userId: 'u1', now });
        break;
      case 'close':
        run(step.pick, { type: 'CloseWeek', progress: 0, now });
        break;
      case 'advance':
        now = now.add({ hours: step.hours });
        // The clock process may lag; when it runs it activates every goal whose week began.
        if (step.activate) for (let i = 0; i < goals.length; i++) run(i, { type: 'ActivateGoal', now });
        break;
    }
    check(goals, now);
  }
}

describe('property: one upcoming goal per user', () => {
  it('never more than one live goal whose week has not begun, nor two live goals in one week', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        simulate(steps, (goals, now) => {
          const live = goals
            .map((stream) => foldEvents(goalDecider, stream))
            .filter((s) => s.status !== 'none' && s.status !== 'canceled' && s.status !== 'deleted');
          const notBegun = live.filter((s) => !hasWeekStartedInZone(s.goal.weekStart, s.goal.timeZone, now));
          expect(notBegun.length).toBeLessThanOrEqual(1);
          const weeks = live.map((s) => s.goal.weekStart);
          expect(new Set(weeks).size).toBe(weeks.length);
          // With every status taken into account: at most one goal in status upcoming whose week is ahead.
          expect(live.filter((s) => s.status === 'upcoming' && notBegun.includes(s)).length).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('with a prompt clock process, never more than one goal in status upcoming', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        const prompt = steps.map((s) => (s.kind === 'advance' ? { ...s, activate: true } : s));
        simulate(prompt, (goals) => {
          const upcoming = goals.map((s) => foldEvents(goalDecider, s)).filter((s) => s.status === 'upcoming');
          expect(upcoming.length).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 300 },
    );
  });
});
