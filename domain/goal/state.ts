import type { GoalDetails, GoalEvent } from './events.ts';

/** A goal that exists. */
interface Known<Status extends string> {
  readonly status: Status;
  readonly goal: GoalDetails;
}

/**
 * The goal's lifecycle (§4): upcoming → active → completed | missed; upcoming | active → canceled; upcoming → deleted.
 * A completed goal goes back to active when its completion is withdrawn before its week is closed (settled).
 * The state keeps no progress figure: progress is a function of the runs (progress.ts), which the lifecycle process
 * passes in with RecordProgress and CloseWeek.
 */
export type GoalState =
  | { readonly status: 'none' }
  | Known<'upcoming'>
  | Known<'active'>
  | (Known<'completed'> & { readonly weekClosed: boolean })
  | Known<'missed'>
  | Known<'canceled'>
  | Known<'deleted'>;

/** The state before the first event. */
export const initialGoalState: GoalState = { status: 'none' };

/** Applies one event. Events were validated when decided, so evolve only records them. */
export function evolveGoal(state: GoalState, event: GoalEvent): GoalState {
  switch (event.type) {
    case 'GoalCreated': {
      const { createdAt: _createdAt, ...goal } = event.data;
      return { status: 'upcoming', goal };
    }
    case 'GoalActivated':
      return state.status === 'upcoming' ? { ...state, status: 'active' } : state;
    case 'GoalProgressRecorded':
      // Written by older versions on every run; it never changed the lifecycle, and the state keeps no progress.
      return state;
    case 'GoalCompleted':
      return state.status === 'none' ? state : { status: 'completed', goal: state.goal, weekClosed: false };
    case 'GoalCompletionWithdrawn':
      return state.status === 'none' ? state : { status: 'active', goal: state.goal };
    case 'GoalWeekClosed':
      return state.status === 'completed' ? { ...state, weekClosed: true } : state;
    case 'GoalMissed':
      return state.status === 'none' ? state : { status: 'missed', goal: state.goal };
    case 'GoalCanceled':
      return state.status === 'none' ? state : { status: 'canceled', goal: state.goal };
    case 'GoalDeleted':
      return state.status === 'none' ? state : { status: 'deleted', goal: state.goal };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * Whole percent of the target reached (§2 goal card). Floored, and never 100 below the target, so the card and the
 * completion rule agree; may exceed 100.
 */
export function percentageOf(progress: number, target: number): number {
  if (isTargetReached(progress, target)) return Math.max(100, Math.floor((progress * 100) / target));
  return Math.min(99, Math.floor((progress * 100) / target + 1e-9));
}

/** Whether progress meets the target; tolerant of float noise in sums of 2-decimal distances. */
export function isTargetReached(progress: number, target: number): boolean {
  return progress + 1e-9 >= target;
}

/**
 * Whether a counted progress changes the goal: it reaches the target of an active goal, or falls below the target
 * of a completed goal whose week is still open. RecordProgress decides events exactly then, so a caller may skip it
 * otherwise.
 */
export function progressChangesGoal(state: GoalState, progress: number): boolean {
  if (state.status === 'active') return isTargetReached(progress, state.goal.targetValue);
  if (state.status === 'completed') return !state.weekClosed && !isTargetReached(progress, state.goal.targetValue);
  return false;
}
