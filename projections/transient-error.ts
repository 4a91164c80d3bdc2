/**
 * Tells a database that is briefly unreachable apart from a statement the database refuses. It decides what follows
 * wherever a database call fails: a projection retries a transient fault for as long as it lasts but records an event
 * it keeps refusing as poisoned; an HTTP request answers 503 with Retry-After instead of 500. Guessing wrong is costly
 * both ways (an outage called "poison" skips good events, a refusal called "transient" stops a projection forever), so
 * the list is closed: only connection loss, server shutdown/start-up, resource exhaustion and lost concurrency races
 * are transient; anything else (a bad value, a constraint, a bug) is the statement's fault.
 */

/**
 * PostgreSQL SQLSTATE classes and codes that say nothing about the statement itself:
 * 08 connection exception, 53 insufficient resources (too many connections, out of memory, disk full),
 * 57P01–57P05 administrator/crash shutdown, cannot connect now, idle-session timeout; 40001/40P01 serialization
 * failure and deadlock (retrying is the documented answer); 55P03 lock not available (lock_timeout).
 */
const TRANSIENT_SQLSTATE_CLASSES = ['08', '53'];
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P04', '57P05', '40001', '40P01', '55P03']);

/** Socket-level failures Node reports while connecting to or talking with the server. */
const TRANSIENT_NODE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres and kysely report a lost or unusable connection with plain Errors and no code; these are their
 * messages (pg 8: client.js and pg-pool; kysely: postgres-driver.js).
 */
const TRANSIENT_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable$/,
  /^Postgres connection has been discarded$/,
  /^Client was closed/,
  /^Connection ended unexpectedly/,
];

/** True when `error` (or an error in its `cause` chain or its `errors`) means the database is unreachable for now, not that it refused. */
export function isTransientDatabaseError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause, errors } = current as Record<string, unknown>;
    if (typeof code === 'string') {
      if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
    }
    if (typeof message === 'string' && TRANSIENT_MESSAGES.some((pattern) => pattern.test(message))) return true;
    // Connecting to a host with several addresses fails with an AggregateError of one error per address.
    if (Array.isArray(errors) && errors.some((each) => isTransientDatabaseError(each))) return true;
    current = cause;
  }
  return false;
}
