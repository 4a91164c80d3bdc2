/** Longest display name accepted; long enough for real names, short enough for leaderboards. */
export const DISPLAY_NAME_MAX = 50;

/** The name a profile gets when sign-up gave none (a passwordless sign-up, or a client that sends no data). */
export const FALLBACK_DISPLAY_NAME = 'Runner';

/** How long the product promises to take, at most, to erase personal data after a deletion request. */
export const ERASURE_DEADLINE_DAYS = 30;
