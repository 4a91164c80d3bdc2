/** An account before registration, while active, once deletion is requested, and after its data is erased. */
export type AccountState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly userId: string; readonly timezone: string }
  | { readonly status: 'deletion_requested'; readonly userId: string; readonly eraseBy: string }
  | { readonly status: 'erased'; readonly userId: string };

/** The state of a user stream with no events. */
export const initialAccountState: AccountState = { status: 'none' };
