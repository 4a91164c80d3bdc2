import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * §3 user_preferences and user_notification_preferences. Settings, not facts of the accountability record: they
 * change nothing that is settled or audited, so they are plain rows (upserted by their owner) rather than events.
 * A missing row means the defaults (§9).
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE user_preferences (
      user_id text PRIMARY KEY REFERENCES auth_users(id) ON DELETE CASCADE,
      distance_unit text NOT NULL DEFAULT 'km',
      default_charity_id text,
      remember_charity boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE user_notification_preferences (
      user_id text PRIMARY KEY REFERENCES auth_users(id) ON DELETE CASCADE,
      upcoming_goal_enabled boolean NOT NULL DEFAULT true,
      midweek_update_enabled boolean NOT NULL DEFAULT true,
      ending_soon_enabled boolean NOT NULL DEFAULT true,
      upcoming_goal_time text NOT NULL DEFAULT '18:00:00',
      midweek_update_time text NOT NULL DEFAULT '18:00:00',
      ending_soon_time text NOT NULL DEFAULT '09:00:00',
      updated_at timestamptz NOT NULL
    )`.execute(db);
}

/** Migrations of the preferences module. */
export const preferencesMigrations: Record<string, Migration> = {
  '2026-11-26-01-preferences-tables': { up },
};
