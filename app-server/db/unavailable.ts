/*
 * What every API (the product's and the auth service's) answers while the database is unreachable: a restart, a
 * failover, a lost connection. Nothing was saved; the client may come back shortly and retry.
 */

/** The 503 message. */
export const SERVICE_UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';

/** Seconds a client should wait before retrying a 503 (sent as Retry-After). */
export const RETRY_AFTER_SECONDS = 2;
