import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { CHANGES_CHANNEL } from '../../projections/change-announcements.ts';

const now = sql`now()`;

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('encrypted_password', 'text')
    .addColumn('email_confirmed_at', 'timestamptz')
    .addColumn('confirmation_sent_at', 'timestamptz')
    .addColumn('recovery_sent_at', 'timestamptz')
    .addColumn('new_email', 'text')
    .addColumn('email_change_sent_at', 'timestamptz')
    .addColumn('last_sign_in_at', 'timestamptz')
    .addColumn('user_metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('deleted_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey().references('auth_users.id'))
    .addColumn('email', 'text')
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('America/New_York'))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_xp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('avatar_url', 'text')
    .addColumn('streak', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('deleted_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('auth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('aal', 'text', (c) => c.notNull())
    .addColumn('amr', 'jsonb', (c) => c.notNull())
    .addColumn('factor_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('refreshed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('not_after', 'timestamptz', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('auth_sessions_user_idx').on('auth_sessions').column('user_id').execute();

  await db.schema
    .createTable('auth_refresh_tokens')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('session_id', 'text', (c) => c.notNull().references('auth_sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('rotated_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('auth_refresh_tokens_session_idx')
    .on('auth_refresh_tokens')
    .column('session_id')
    .execute();

  await db.schema
    .createTable('auth_one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('link_hash', 'text', (c) => c.notNull().unique())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('code_challenge_method', 'text')
    .addColumn('redirect_to', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('auth_one_time_tokens_email_idx')
    .on('auth_one_time_tokens')
    .columns(['email', 'kind'])
    .execute();

  await db.schema
    .createTable('auth_flow_states')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('code_challenge_method', 'text', (c) => c.notNull())
    .addColumn('authentication_method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('auth_factors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('friendly_name', 'text')
    .addColumn('factor_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_challenged_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('auth_factors_user_idx').on('auth_factors').column('user_id').execute();

  await db.schema
    .createTable('auth_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('factor_id', 'text', (c) => c.notNull().references('auth_factors.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('auth_signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'jsonb', (c) => c.notNull())
    .addColumn('private_key_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('retired_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('auth_rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('dev_mail')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('links', 'jsonb', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

/** The addresses each user signed in from (see SignInSourceTable), for the per-account sign-in limit. */
async function addSignInSources(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_sign_in_sources')
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('source_hash', 'text', (c) => c.notNull())
    .addColumn('last_success_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('auth_sign_in_sources_pk', ['user_id', 'source_hash'])
    .execute();
}

/**
 * The session epoch (live-sessions.ts): one counter that every change able to end a session, or to change what the
 * product's guard answers about it, moves forward in its own transaction. Triggers do it, so no code path (a
 * sign-out, revoke-all, a reused refresh token, an MFA step-up, an erased or deleted account, a cascade, a manual
 * fix in psql) can forget. A token refresh moves only refreshed_at, which is not watched: refreshes are frequent and
 * a refresh only lengthens a session.
 */
async function addSessionEpoch(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE auth_session_epoch (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    epoch bigint NOT NULL DEFAULT 0
  )`.execute(db);
  await sql`INSERT INTO auth_session_epoch DEFAULT VALUES`.execute(db);
  await sql`CREATE FUNCTION auth_session_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE auth_session_epoch SET epoch = epoch + 1;
      RETURN NULL;
    END $$`.execute(db);
  const bump = sql`FOR EACH STATEMENT EXECUTE FUNCTION auth_session_epoch_bump()`;
  await sql`CREATE TRIGGER auth_sessions_ended AFTER DELETE OR TRUNCATE ON auth_sessions ${bump}`.execute(db);
  await sql`CREATE TRIGGER auth_sessions_changed AFTER UPDATE OF user_id, aal, amr, not_after ON auth_sessions ${bump}`.execute(
    db,
  );
  await sql`CREATE TRIGGER auth_users_gone AFTER UPDATE OF deleted_at OR DELETE OR TRUNCATE ON auth_users ${bump}`.execute(
    db,
  );
}

/**
 * A display name or time zone changed, or a profile gone, is announced like a read model's change
 * (projections/change-announcements.ts: topic `profile` to that user), so the read cache can hold them
 * (app-server/http/read-cache.ts: GET /feed's names, the challenges' members) and the user's other devices refresh
 * their profile. A trigger does it, so no path that writes them (a profile change, an erasure, a cascade, a fix in
 * psql) can forget; the NOTIFY is heard only if its transaction commits. The trigger keeps the name it landed with
 * (`users_display_name_…`, though it watches the time zone too): databases already migrated hold that name.
 */
async function announceProfiles(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION users_display_name_announce() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR (NEW.display_name, NEW.timezone) IS DISTINCT FROM (OLD.display_name, OLD.timezone) THEN
        PERFORM pg_notify(${sql.lit(CHANGES_CHANNEL)},
          json_build_array(json_build_object('userId', OLD.id, 'topics', json_build_array('profile')))::text);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER users_display_name_announced AFTER UPDATE OF display_name, timezone OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION users_display_name_announce()`.execute(db);
}

/** Schema owned by this module; registered in app-server/db/migrations/index.ts. */
export const authMigrations: Record<string, Migration> = {
  '2026-11-22-03-auth-tables': { up },
  '2026-12-10-01-auth-sign-in-sources': { up: addSignInSources },
  '2026-12-12-01-auth-session-epoch': { up: addSessionEpoch },
  '2026-12-28-01-auth-profiles-announced': { up: announceProfiles },
};
