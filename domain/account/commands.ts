import type { Temporal } from 'temporal-polyfill';

/** Register a new user; the server supplies the id and reads the time zone from the sign-up request. */
export interface RegisterUser {
  readonly type: 'RegisterUser';
  readonly userId: string;
  readonly displayName: string;
  /** The browser's zone; absent means the default (America/New_York). */
  readonly timezone: string | undefined;
  readonly now: Temporal.Instant;
}

/**
 * Change the time zone and/or display name. The current display name comes from the users row, because names are
 * personal data and stay out of events.
 */
export interface UpdateProfile {
  readonly type: 'UpdateProfile';
  readonly timezone: string | undefined;
  readonly displayName: string | undefined;
  readonly currentDisplayName: string;
  readonly now: Temporal.Instant;
}

/** Ask for the account to be deleted. */
export interface RequestAccountDeletion {
  readonly type: 'RequestAccountDeletion';
  readonly now: Temporal.Instant;
}

/** Record that the personal data of an account whose deletion was requested has been erased. */
export interface ErasePersonalData {
  readonly type: 'ErasePersonalData';
  readonly now: Temporal.Instant;
}

/** Every command the account aggregate accepts. */
export type AccountCommand = RegisterUser | UpdateProfile | RequestAccountDeletion | ErasePersonalData;
