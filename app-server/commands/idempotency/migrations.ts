import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Which route and body first used each user's Idempotency-Key. Not a fact of the product (the events are), only the
 * memory that makes the same key with another request a 422; kept as long as the account, since the key also
 * decides the id of what the request created.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_keys (
      user_id text NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
      key text NOT NULL,
      route text NOT NULL,
      fingerprint text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, key)
    )`.execute(db);
}

/**
 * What the key's write answered (keyed-request.ts): the command's result — the ids it created, the log position the
 * answer waits for — written in the transaction of the command's events, so a retry answers it without running the
 * command again. Null while the key is claimed and its write has not committed (or failed, and may run again).
 */
async function outcome(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys ADD COLUMN outcome jsonb`.execute(db);
}

/** Migrations of the idempotent-request module. */
export const idempotencyMigrations: Record<string, Migration> = {
  '2026-12-01-01-idempotency-keys': { up },
  '2026-12-27-01-idempotency-outcomes': { up: outcome },
};
