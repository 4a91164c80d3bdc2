import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Push tokens (§3 Push token registration) and notifications (§3 Notification). A notification row is the in-app
 * notification and the record of a delivery: its id is a deterministic key (user + type + week or goal) for
 * reminders, so a restarted scheduler cannot insert, and therefore cannot push, the same reminder twice.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE push_tokens (
      token text PRIMARY KEY,
      user_id text NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
      platform text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX push_tokens_user ON push_tokens (user_id)`.execute(db);
  await sql`
    CREATE TABLE notifications (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
      type text NOT NULL,
      title text NOT NULL,
      message text NOT NULL,
      data jsonb NOT NULL,
      delivered_at timestamptz NOT NULL,
      push_status text NOT NULL,
      push_sent integer NOT NULL DEFAULT 0
    )`.execute(db);
  await sql`CREATE INDEX notifications_user_delivered ON notifications (user_id, delivered_at)`.execute(db);
  await sql`CREATE INDEX notifications_pending ON notifications (push_status) WHERE push_status = 'pending'`.execute(
    db,
  );
}

/** Migrations of the notifications module. */
export const notificationsMigrations: Record<string, Migration> = {
  '2026-11-26-02-notifications-tables': { up },
};
