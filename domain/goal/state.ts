import type { GoalDetails, GoalEvent } from './events.ts';

/** A goal that exists, with its counted progress (km or runs). */
interface Known<Status extends string> {
  readonly status: Status;
  readonly goal: GoalDetails;
  readonly progress: number;
}

/** The goal's lifecycle (§4): upcoming → active → completed | missed; upcoming | active → canceled; upcoming → deleted. */
export type GoalState =
  | { readonly status: 'none' }
  | Known<'upcoming'>
  | Known<'active'>
  | Known<'completed'>
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
      return { status: 'upcoming', goal, progress: 0 };
    }
    case 'GoalActivated':
      return state.status === 'upcoming' ? { ...state, status: 'active' } : state;
    case 'GoalProgressRecorded':
      return state.status === 'none' ? state : { ...state, progress: event.data.progress };
    case 'GoalCompleted':
      return state.status === 'none' ? state : { ...state, status: 'completed', progress: event.data.progress };
    case 'GoalMissed':
      return state.status === 'none' ? state : { ...state, status: 'missed', progress: event.data.progress };
    case 'GoalCanceled':
      return state.status === 'none' ? state : { ...state, status: 'canceled' };
    case 'GoalDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
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
