/** The shortest run that is saved (§4, §9). */
export const MIN_RUN_SECONDS = 60;

/** The fewest GPS positions a tracked run needs (§4, §9). */
export const MIN_RUN_POSITIONS = 2;

/** Tolerated clock difference between a device and the server. */
export const CLOCK_SKEW = { minutes: 5 } as const;

/**
 * How far back a run uploaded after the fact (POST /runs) may start: this week and last, for a phone that saved a
 * run offline. Older runs could only feed badges and XP (their weeks are long settled), which is what backdating
 * abused: a run "from" a Halloween two years ago earned halloween_run.
 */
export const MAX_LOGGED_RUN_AGE_DAYS = 7;

/** How far back an imported activity may start: the connect backfill window (§9, 30 days). */
export const MAX_IMPORTED_RUN_AGE_DAYS = 30;

/** The longest notes a run keeps. */
export const MAX_NOTES_LENGTH = 1000;
