import type { AccountEvent } from './events.ts';

/** An account before registration, while active, once deletion is requested, and after its data is erased. */
export type AccountState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly userId: string; readonly timezone: string }
  | { readonly status: 'deletion_requested'; readonly userId: string; readonly eraseBy: string }
  | { readonly status: 'erased'; readonly userId: string };

/** The state of a user stream with no events. */
export const initialAccountState: AccountState = { status: 'none' };

/** Applies one account event to the state. */
export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'UserRegistered':
      return { status: 'active', userId: event.data.userId, timezone: event.data.timezone };
    case 'ProfileUpdated':
      if (state.status !== 'active' || event.data.timezone === undefined) return state;
      return { ...state, timezone: event.data.timezone };
    case 'AccountDeletionRequested':
      return { status: 'deletion_requested', userId: event.data.userId, eraseBy: event.data.eraseBy };
    case 'PersonalDataErased':
      return { status: 'erased', userId: event.data.userId };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
