import type { RunEvent, RunRecord } from './events.ts';

/** A run's lifecycle: recorded, then possibly deleted (kept as a tombstone so an import is not re-created). */
export type RunState =
  | { readonly status: 'none' }
  | { readonly status: 'recorded'; readonly run: RunRecord }
  | { readonly status: 'deleted'; readonly run: RunRecord };

/** The state before the first event. */
export const initialRunState: RunState = { status: 'none' };

/** Applies one event. */
export function evolveRun(state: RunState, event: RunEvent): RunState {
  switch (event.type) {
    case 'RunRecorded': {
      const { recordedAt: _recordedAt, ...run } = event.data;
      return { status: 'recorded', run };
    }
    case 'RunNotesEdited':
      return state.status === 'recorded' ? { ...state, run: { ...state.run, notes: event.data.notes } } : state;
    case 'RunDeleted':
      return state.status === 'recorded' ? { status: 'deleted', run: state.run } : state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
