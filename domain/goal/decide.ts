import { type Either, isLeft, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isStakeOption } from '../shared/money.ts';
import { maySettle } from '../shared/settlement.ts';
import { canonicalTimeZone } from '../shared/time-zone.ts';
import { hasWeekStartedInZone, nextWeekStart, weekStartOf } from '../shared/week.ts';
import type { CancelGoal, CloseWeek, CreateGoal, DeleteUpcomingGoal, GoalCommand, RecordProgress } from './commands.ts';
import { GoalEvent } from './events.ts';
import { goalErrors } from './messages.ts';
import { FORFEIT_ON_UPCOMING_CANCEL } from './policy.ts';
import { evolveGoal, type GoalState, initialGoalState, percentageOf, progressChangesGoal } from './state.ts';
import { storedTarget, targetError } from './target.ts';
import { instantIso } from '../shared/instant.ts';

/*
 * A GOAL'S WEEK (§2 wizard, §4 lifecycle, §5 target rules, §9 limits).
 *
 * A goal is a promise about one Monday–Sunday week in the zone the runner had when they set it; the zone is locked
 * so that moving does not stretch or shrink a week with money on it. It is upcoming until its week begins there,
 * then active; the runs of the week decide whether it completes, and settlement (never before the week ended in the
 * goal's zone, nor before Monday 00:00 New York) closes it as completed or missed. Progress itself is not a fact of
 * this stream but a function of the runs (progress.ts): the lifecycle process passes the current figure in, and
 * the stream records only what changes the goal (completion, its withdrawal, the close with its final figure).
 * Canceling an active staked goal forfeits the stake; an upcoming one forfeits nothing (policy.ts).
 */

type Decision = Either<DomainError, readonly GoalEvent[]>;
type Open = Extract<GoalState, { status: 'active' | 'completed' }>;

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
  const at = instantIso(command.now);
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

/*
 * COMPLETION AND DELETED RUNS (issue 11: "a run deleted after it completed a goal re-opens the question").
 *
 * A goal completes the first time its counted progress reaches the target (GoalCompleted), and a stake's hold is
 * released at that moment, as before: a runner who made it gets their money back at once.
 * Until the week is settled (CloseWeek: Monday 00:00 New York, never before the week ended in the goal's zone),
 * the completion stands only while the runs that count still add up: when a run is deleted and progress falls
 * below the target, the completion is withdrawn (GoalCompletionWithdrawn) and the goal is active again; it may
 * complete again, and at settlement it is completed or missed by the runs that stand then.
 * The money: a released hold is never taken back. The release happened because the runs then passed the policy;
 * charging a card we told "Goal achieved!" is the failure FACTS warns about, and a deleted run's evidence stays in
 * the log. So a goal completed only by a since-deleted run ends the week missed, with its stake still released:
 * the stake audit lists exactly those stakes for review (app-server/audit), and deleting the run gained nothing
 * the run had not already earned.
 * After settlement nothing changes a goal: RecordProgress on a missed goal is refused, on a closed completed goal
 * it is a no-op (GoalWeekClosed froze its progress).
 */

/** The completion a counted progress calls for: reached while active, or lost while completed and still open. */
function completionChange(state: Open, progress: number, at: string): GoalEvent[] {
  if (!progressChangesGoal(state, progress)) return [];
  const { goalId, targetValue } = state.goal;
  if (state.status === 'active') return [{ type: 'GoalCompleted', data: { goalId, progress, completedAt: at } }];
  const percentage = percentageOf(progress, targetValue);
  return [{ type: 'GoalCompletionWithdrawn', data: { goalId, progress, percentage, withdrawnAt: at } }];
}

/** Refusals common to RecordProgress and CloseWeek: a figure that is no progress, a goal that is not open. */
function openGoal(progress: number, state: GoalState): Either<DomainError, Open | null> {
  if (!Number.isFinite(progress) || progress < 0) return left(goalErrors.invalidProgress());
  switch (state.status) {
    case 'none':
      return left(goalErrors.notFound());
    case 'upcoming':
      return left(goalErrors.notActive());
    case 'missed':
    case 'canceled':
    case 'deleted':
      return right(null);
    case 'active':
    case 'completed':
      return right(state);
    default: {
      const unreachable: never = state;
      return unreachable;
    }
  }
}

function recordProgress(command: RecordProgress, state: GoalState): Decision {
  const open = openGoal(command.progress, state);
  if (isLeft(open)) return open;
  if (open.right === null) return left(goalErrors.closed());
  return right(completionChange(open.right, command.progress, instantIso(command.now)));
}

function closeWeek(command: CloseWeek, state: GoalState): Decision {
  const open = openGoal(command.progress, state);
  if (isLeft(open)) return open;
  // Already settled one way or another: the settlement process may safely repeat itself.
  if (open.right === null) return right([]);
  const goal = open.right;
  if (goal.status === 'completed' && goal.weekClosed) return right([]);
  const { goalId, weekStart, timeZone, targetValue } = goal.goal;
  // Closed no earlier than settlement (Monday 00:00 New York) and never before the week ended in the goal's own
  // zone; a run synced late in between still counts.
  if (!maySettle(weekStart, timeZone, command.now)) return left(goalErrors.weekNotOver());
  const at = instantIso(command.now);
  // The process records the final figure first, so the status already agrees with it; if not, it is brought in line.
  const change = completionChange(goal, command.progress, at);
  const completed = (goal.status === 'completed') !== change.length > 0;
  const data = {
    goalId,
    progress: command.progress,
    percentage: percentageOf(command.progress, targetValue),
    closedAt: at,
  };
  return right([...change, completed ? { type: 'GoalWeekClosed', data } : { type: 'GoalMissed', data }]);
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
        canceledAt: instantIso(command.now),
      },
    },
  ]);
}

function deleteUpcoming(command: DeleteUpcomingGoal, state: GoalState): Decision {
  if (state.status === 'none') return left(goalErrors.notFound());
  if (state.goal.userId !== command.userId) return left(goalErrors.notOwner());
  if (state.status !== 'upcoming') return left(goalErrors.notDeletable());
  return right([{ type: 'GoalDeleted', data: { goalId: state.goal.goalId, deletedAt: instantIso(command.now) } }]);
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
      return right([{ type: 'GoalActivated', data: { goalId, weekStart, activatedAt: instantIso(command.now) } }]);
    }
    case 'RecordProgress':
      return recordProgress(command, state);
    case 'CloseWeek':
      return closeWeek(command, state);
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
export const goalDecider = defineDecider<GoalCommand, GoalEvent, GoalState>({
  initialState: initialGoalState,
  evolve: evolveGoal,
  decide: decideGoal,
  eventSchema: GoalEvent,
});
