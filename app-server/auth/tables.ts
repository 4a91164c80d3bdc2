import type { ColumnType, Generated, Selectable } from 'kysely';

/*
 * Row types of the auth module's tables (kysely). Timestamps are written as Date and read back as Date by both
 * engines; JSON columns are written as strings and read back parsed.
 */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;

/** A login identity: e-mail, password hash and the confirmation state. */
export type AuthUserTable = {
  id: string;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: NullableTimestamp;
  confirmation_sent_at: NullableTimestamp;
  recovery_sent_at: NullableTimestamp;
  new_email: string | null;
  email_change_sent_at: NullableTimestamp;
  last_sign_in_at: NullableTimestamp;
  user_metadata: Json<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
};

/** The product profile (§3 User): personal data lives here, never in events. */
export type ProductUserTable = {
  id: string;
  email: string | null;
  display_name: string;
  timezone: string;
  level: number;
  total_xp: number;
  avatar_url: string | null;
  streak: Json<{ current_streak: number; longest_streak: number; last_completed_week: string | null }>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
};

/** A signed-in device; its refresh tokens form one family. */
export type SessionTable = {
  id: string;
  user_id: string;
  aal: 'aal1' | 'aal2';
  amr: Json<{ method: string; timestamp: number }[]>;
  factor_id: string | null;
  created_at: Timestamp;
  refreshed_at: Timestamp;
  not_after: Timestamp;
  user_agent: string | null;
  ip: string | null;
};

/** A refresh token, stored as its SHA-256 only. `rotated_at` set = already exchanged once. */
export type RefreshTokenTable = {
  id: Generated<number>;
  token_hash: string;
  session_id: string;
  user_id: string;
  created_at: Timestamp;
  rotated_at: NullableTimestamp;
};

/** A mailed one-time token: a link secret and a 6-digit code, both stored hashed. */
export type OneTimeTokenTable = {
  id: string;
  user_id: string;
  kind: 'signup' | 'recovery' | 'magiclink' | 'email_change' | 'reauthentication';
  email: string;
  link_hash: string;
  code_hash: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  redirect_to: string | null;
  attempts: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
};

/** A PKCE authorization code waiting to be exchanged for a session. */
export type FlowStateTable = {
  id: string;
  code_hash: string;
  user_id: string;
  code_challenge: string;
  code_challenge_method: string;
  authentication_method: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
};

/** An MFA factor (TOTP); the secret is encrypted at rest. */
export type FactorTable = {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp';
  status: 'unverified' | 'verified';
  secret_enc: string;
  last_used_step: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_challenged_at: NullableTimestamp;
};

/** A challenge issued for a factor, answered once before it expires. */
export type ChallengeTable = {
  id: string;
  factor_id: string;
  session_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  verified_at: NullableTimestamp;
};

/** A JWT signing key; the private half is encrypted at rest. */
export type SigningKeyTable = {
  kid: string;
  alg: 'ES256';
  public_jwk: Json<Record<string, unknown>>;
  private_key_enc: string;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
};

/** A fixed-window counter shared by every API instance. */
export type RateLimitTable = {
  key: string;
  window_start: Timestamp;
  count: number;
};

/**
 * An address a user signed in from successfully: the sign-in limit per account spares these, so an attacker
 * guessing from elsewhere cannot lock the owner out. The address is kept only as SHA-256 of (user id, address).
 */
export type SignInSourceTable = {
  user_id: string;
  source_hash: string;
  last_success_at: Timestamp;
};

/** A mail kept by the development mailbox. */
export type DevMailTable = {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  links: Json<string[]>;
  sent_at: Timestamp;
};

/** The session epoch: one row, moved forward by triggers whenever a session may have ended (live-sessions.ts). */
export type SessionEpochTable = {
  singleton: Generated<boolean>;
  epoch: number;
};

/** Every table of the auth module. */
export type AuthTables = {
  auth_users: AuthUserTable;
  users: ProductUserTable;
  auth_sessions: SessionTable;
  auth_session_epoch: SessionEpochTable;
  auth_refresh_tokens: RefreshTokenTable;
  auth_one_time_tokens: OneTimeTokenTable;
  auth_flow_states: FlowStateTable;
  auth_factors: FactorTable;
  auth_challenges: ChallengeTable;
  auth_signing_keys: SigningKeyTable;
  auth_rate_limits: RateLimitTable;
  auth_sign_in_sources: SignInSourceTable;
  dev_mail: DevMailTable;
};

/** A row of AuthUserTable as read back. */
export type AuthUserRow = Selectable<AuthUserTable>;

/** A row of ProductUserTable as read back. */
export type ProductUserRow = Selectable<ProductUserTable>;

/** A row of SessionTable as read back. */
export type SessionRow = Selectable<SessionTable>;

/** A row of RefreshTokenTable as read back. */
export type RefreshTokenRow = Selectable<RefreshTokenTable>;

/** A row of OneTimeTokenTable as read back. */
export type OneTimeTokenRow = Selectable<OneTimeTokenTable>;

/** A row of FlowStateTable as read back. */
export type FlowStateRow = Selectable<FlowStateTable>;

/** A row of FactorTable as read back. */
export type FactorRow = Selectable<FactorTable>;

/** A row of ChallengeTable as read back. */
export type ChallengeRow = Selectable<ChallengeTable>;

/** A row of SigningKeyTable as read back. */
export type SigningKeyRow = Selectable<SigningKeyTable>;

/** A row of RateLimitTable as read back. */
export type RateLimitRow = Selectable<RateLimitTable>;

/** A row of DevMailTable as read back. */
export type DevMailRow = Selectable<DevMailTable>;
