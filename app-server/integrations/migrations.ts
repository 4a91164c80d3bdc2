import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Connected services (§3 External account). State lives in tables, not events, because it is mostly secrets:
 * - external_accounts: one row per user and provider, with the OAuth tokens sealed (AES-GCM under
 *   AUTH_ENCRYPTION_KEY), the granted scopes and the athlete id. `id` is the connection id, whose lifecycle
 *   (connected, backfill progress, disconnected) is recorded as events in stream `external-account-<id>`.
 * - external_backfills: the backfills still to run, derived from those events by the sync process (its checkpoint
 *   and this table commit together), so a restarted worker knows what is left; the page to resume from is in the
 *   stream itself.
 * - strava_webhook_inbox: webhook events as received (answered 200 at once), worked through by the sync process.
 *   Keyed by a hash of the event, so Strava's retries of one event are stored once.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE external_accounts (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
      provider text NOT NULL,
      external_user_id text NOT NULL,
      scopes text NOT NULL,
      access_token_sealed text NOT NULL,
      refresh_token_sealed text NOT NULL,
      token_expires_at timestamptz NOT NULL,
      last_sync_at timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (user_id, provider),
      UNIQUE (provider, external_user_id)
    )`.execute(db);
  await sql`
    CREATE TABLE external_backfills (
      connection_id text PRIMARY KEY,
      user_id text NOT NULL,
      requested_at timestamptz NOT NULL,
      next_attempt_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      last_error text
    )`.execute(db);
  await sql`CREATE INDEX external_backfills_due ON external_backfills (next_attempt_at)`.execute(db);
  await sql`
    CREATE TABLE strava_webhook_inbox (
      id text PRIMARY KEY,
      received_at timestamptz NOT NULL,
      payload jsonb NOT NULL,
      next_attempt_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      processed_at timestamptz,
      outcome text
    )`.execute(db);
  await sql`CREATE INDEX strava_webhook_inbox_open ON strava_webhook_inbox (next_attempt_at) WHERE processed_at IS NULL`.execute(
    db,
  );
}

/**
 * oauth_states: the OAuth round trips in progress (oauth-state.ts). Only a hash of the state is kept (a copy of the
 * table hands out no usable state); each row names the user AND the auth session that started it, so only that
 * session can complete it, once (deleted as it is used), within its expiry. A signed-out session takes its states
 * with it. `return_to` says where the callback hands the round trip over: the web app, or the native shell's
 * deep link (the system browser that came back from the provider holds no session of the app).
 */
async function upOAuthStates(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE oauth_states (
      state_hash text PRIMARY KEY,
      provider text NOT NULL,
      user_id text NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
      session_id text NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      return_to text NOT NULL DEFAULT 'web' CHECK (return_to IN ('web', 'native'))
    )`.execute(db);
  await sql`CREATE INDEX oauth_states_session ON oauth_states (session_id, created_at)`.execute(db);
  await sql`CREATE INDEX oauth_states_expiry ON oauth_states (expires_at)`.execute(db);
}

/**
 * The sync process takes the webhook inbox's oldest events due, a batch at a time: this index gives them in that
 * order, so the batch is a walk that stops after a batch, where the index on next_attempt_at left PostgreSQL to read
 * and sort every open event for every batch (a burst of webhooks, or statistics gathered before it, as the stake
 * worker's due actions showed: stake migration 2026-12-30-01). It replaces that index, which only this query used.
 */
async function upInboxOpenInOrder(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX strava_webhook_inbox_open_in_order ON strava_webhook_inbox (received_at, id)
    WHERE processed_at IS NULL`.execute(db);
  await sql`DROP INDEX strava_webhook_inbox_open`.execute(db);
}

/** Migrations of the integrations module. */
export const integrationsMigrations: Record<string, Migration> = {
  '2026-12-01-01-integrations-tables': { up },
  '2026-12-20-01-integrations-oauth-states': { up: upOAuthStates },
  '2026-12-30-02-strava-webhook-inbox-open-in-order': { up: upInboxOpenInOrder },
};
