import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import type { Decider, DomainError } from '../shared/decider.ts';
import { isStakeOption } from '../shared/money.ts';
import { maySettle } from '../shared/settlement.ts';
import { canonicalTimeZone } from '../shared/time-zone.ts';
import { hasWeekStartedInZone, nextWeekStart, weekStartOf } from '../shared/week.ts';
import type { CancelGoal, CreateGoal, DeleteUpcomingGoal, GoalCommand, RecordProgress } from './commands.ts';
import type { GoalEvent } from './events.ts';
import { goalErrors } from './messages.ts';
import { type GoalState, initialGoalState, evolveGoal, isTargetReached, percentageOf } from './state.ts';
import { storedTarget, targetError } from './target.ts';

type Decision = Either<DomainError, readonly GoalEvent[]>;

/**
 * Policy: canceling an UPCOMING staked goal forfeits nothing. Its week has not begun, no hold has been placed (holds
 * go on at activation) and nothing was at risk yet; canceling an ACTIVE staked goal forfeits the stake (§4).
 * One constant so the product can flip it.
 */
export const FORFEIT_ON_UPCOMING_CANCEL = false;

function create(command: CreateGoal, state: GoalState): Decision {
  if (state.status !== 'none') return left(goalErrors.exists());
  const problem = targetError(command.goalType, command.targetValue, command.unit);
  if (problem !== null) return left(goalErrors.invalidTarget(problem));
  if (!isStakeOption(command.stakeAmountCents)) return left(goalErrors.invalidStake());
  const staked = command.stakeAmountCents > 0;
  if (!staked && command.charityId !== null) return left(goalErrors.charityWithoutStake());
  if (staked && command.paymentMethodId === null) return left(goalErrors.paymentMethodRequired());
  const timeZone = canonicalTimeZone(command.timeZone);
  if (timeZone === null) return left(goalErrors.invalidTimeZone());

  const weekStart =
    command.start === 'this_week' ? weekStartOf(command.now, timeZone) : nextWeekStart(command.now, timeZone);
  const at = command.now.toString();
  const created: GoalEvent = {
    type: 'GoalCreated',
    data: {
      goalId: command.goalId,
      userId: command.userId,
      type: command.goalType,
      targetValue: storedTarget(command.goalType, command.targetValue, command.unit),
      enteredValue: command.targetValue,
      enteredUnit: command.goalType === 'distance' ? command.unit : 'km',
      stakeAmountCents: command.stakeAmountCents,
      // A free goal keeps no card: nothing will ever be charged to it.
      charityId: command.charityId,
      paymentMethodId: staked ? command.paymentMethodId : null,
      timeZone,
      weekStart,
      weekEnd: Temporal.PlainDate.from(weekStart).add({ days: 6 }).toString(),
      createdAt: at,
    },
  };
  if (command.start === 'next_week') return right([created]);
  return right([created, { type: 'GoalActivated', data: { goalId: command.goalId, weekStart, activatedAt: at } }]);
}

function recordProgress(command: RecordProgress, state: GoalState): Decision {
  if (!Number.isFinite(command.progress) || command.progress < 0) return left(goalErrors.invalidProgress());
  switch (state.status) {
    case 'none':
      return left(goalErrors.notFound());
    case 'upcoming':
      return left(goalErrors.notActive());
    case 'missed':
    case 'canceled':
    case 'deleted':
      return left(goalErrors.closed());
    case 'active':
    case 'completed': {
      if (command.progress === state.progress) return right([]);
      const { goalId, targetValue } = state.goal;
      const at = command.now.toString();
      const recorded: GoalEvent = {
        type: 'GoalProgressRecorded',
        data: {
          goalId,
          progress: command.progress,
          percentage: percentageOf(command.progress, targetValue),
          recordedAt: at,
        },
      };
      // Completion happens once and is never undone, even if a run is later deleted: the hold is already released
      // and charging someone who was told they met their goal is the failure FACTS warns about.
      if (state.status === 'active' && isTargetReached(command.progress, targetValue)) {
        return right([
          recorded,
          { type: 'GoalCompleted', data: { goalId, progress: command.progress, completedAt: at } },
        ]);
      }
      return right([recorded]);
    }
    default: {
      const unreachable: never = state;
      return unreachable;
    }
  }
}

function closeWeek(now: Temporal.Instant, state: GoalState): Decision {
  switch (state.status) {
    case 'none':
      return left(goalErrors.notFound());
    case 'upcoming':
      return left(goalErrors.notActive());
    case 'completed':
    case 'missed':
    case 'canceled':
    case 'deleted':
      return right([]); // Already settled one way or another: the settlement process may safely repeat itself.
    case 'active': {
      const { goalId, weekStart, timeZone, targetValue } = state.goal;
      // Closed no earlier than settlement (Monday 00:00 New York) and never before the week ended in the goal's
      // own zone; a run synced late in between still counts.
      if (!maySettle(weekStart, timeZone, now)) return left(goalErrors.weekNotOver());
      const percentage = percentageOf(state.progress, targetValue);
      return right([
        { type: 'GoalMissed', data: { goalId, progress: state.progress, percentage, closedAt: now.toString() } },
      ]);
    }
    default: {
      const unreachable: never = state;
      return unreachable;
    }
  }
}

function cancel(command: CancelGoal, state: GoalState): Decision {
  if (state.status === 'none') return left(goalErrors.notFound());
  if (state.goal.userId !== command.userId) return left(goalErrors.notOwner());
  if (state.status !== 'upcoming' && state.status !== 'active') return left(goalErrors.notCancelable());
  const staked = state.goal.stakeAmountCents > 0;
  const stakeForfeited = staked && (state.status === 'active' || FORFEIT_ON_UPCOMING_CANCEL);
  return right([
    {
      type: 'GoalCanceled',
      data: {
        goalId: state.goal.goalId,
        previousStatus: state.status,
        stakeForfeited,
        canceledAt: command.now.toString(),
      },
    },
  ]);
}

function deleteUpcoming(command: DeleteUpcomingGoal, state: GoalState): Decision {
  if (state.status === 'none') return left(goalErrors.notFound());
  if (state.goal.userId !== command.userId) return left(goalErrors.notOwner());
  if (state.status !== 'upcoming') return left(goalErrors.notDeletable());
  return right([{ type: 'GoalDeleted', data: { goalId: state.goal.goalId, deletedAt: command.now.toString() } }]);
}

/** Decides a goal command (§2 wizard, §4 lifecycle, §5 target rules, §9 limits). */
export function decideGoal(command: GoalCommand, state: GoalState): Decision {
  switch (command.type) {
    case 'CreateGoal':
      return create(command, state);
    case 'ActivateGoal': {
      if (state.status === 'none') return left(goalErrors.notFound());
      // Anything but upcoming is already past activation: a repeated clock tick is a no-op.
      if (state.status !== 'upcoming') return right([]);
      const { goalId, weekStart, timeZone } = state.goal;
      if (!hasWeekStartedInZone(weekStart, timeZone, command.now)) return left(goalErrors.weekNotStarted());
      return right([{ type: 'GoalActivated', data: { goalId, weekStart, activatedAt: command.now.toString() } }]);
    }
    case 'RecordProgress':
      return recordProgress(command, state);
    case 'CloseWeek':
      return closeWeek(command.now, state);
    case 'CancelGoal':
      return cancel(command, state);
    case 'DeleteUpcomingGoal':
      return deleteUpcoming(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The goal aggregate, stream `goal-<id>`. */
export const goalDecider: Decider<GoalCommand, GoalEvent, GoalState> = {
  initialState: initialGoalState,
  evolve: evolveGoal,
  decide: decideGoal,
};
