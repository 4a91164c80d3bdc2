import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The product API's request counters (limit-counter.ts), one row per key (`<class>:u:<user>`, `<class>:ip:<address>`),
 * and the count of groups each user is in (the GROUPS_MAX_PER_USER cap, changed in the same transaction as the
 * group's events: commands/groups/group-slots.ts).
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE api_rate_limits (
      key text PRIMARY KEY,
      window_start timestamptz NOT NULL,
      count integer NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE user_group_counts (
      user_id text PRIMARY KEY,
      groups integer NOT NULL
    )`.execute(db);
}

/** Migrations of the request limits. */
export const limitMigrations: Record<string, Migration> = {
  '2026-12-22-01-api-limits': { up },
};
