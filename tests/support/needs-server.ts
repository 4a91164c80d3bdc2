/*
 * Test files whose every suite needs a PostgreSQL server: several processes on one database, server-side session
 * settings, a streaming replica. PGlite is one process in one address space, so without DATABASE_URL (and
 * READ_REPLICA_URL for the replica) there is nothing for them to run, and vitest would fail them as "No test suite
 * found". `npm test` leaves them out then (vitest.config.ts); CI sets both variables and runs them.
 * tests/lint/needs-server.test.ts keeps this list equal to the files that need it.
 */

/** Files that run only with DATABASE_URL. */
export const NEEDS_POSTGRES: readonly string[] = [
  'tests/api/concurrent-start.test.ts',
  'tests/api/database-session.test.ts',
  'tests/api/multi-process.test.ts',
  'tests/api/prepared-statements.test.ts',
  'tests/api/read-cache-across-instances.test.ts',
  'tests/api/read-models-wanted.test.ts',
  'tests/api/revocation-across-instances.test.ts',
  'tests/engine/caught-up.test.ts',
  'tests/projections/rebuild-schema-lock.test.ts',
];

/** Files that run only with DATABASE_URL and READ_REPLICA_URL. */
export const NEEDS_REPLICA: readonly string[] = ['tests/api/read-replica.test.ts'];

/** The files to leave out of a run with this environment. */
export function filesNeedingAbsentServers(env: Readonly<Record<string, string | undefined>>): string[] {
  if (!env.DATABASE_URL) return [...NEEDS_POSTGRES, ...NEEDS_REPLICA];
  if (!env.READ_REPLICA_URL) return [...NEEDS_REPLICA];
  return [];
}
