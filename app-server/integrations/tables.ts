import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null, Date | null>;

/** A connected service account; tokens are sealed with the SecretBox, never stored or logged in clear. */
export type ExternalAccountRow = {
  id: string;
  user_id: string;
  provider: string;
  external_user_id: string;
  /** Comma-separated, as Strava granted them. */
  scopes: string;
  access_token_sealed: string;
  refresh_token_sealed: string;
  token_expires_at: Timestamp;
  last_sync_at: NullableTimestamp;
  created_at: Timestamp;
};

/** A backfill still to run (see migrations.ts). */
export type ExternalBackfillRow = {
  connection_id: string;
  user_id: string;
  requested_at: Timestamp;
  next_attempt_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
};

/** A webhook event waiting to be worked on. */
export type StravaWebhookInboxRow = {
  id: string;
  received_at: Timestamp;
  payload: ColumnType<unknown, string, string>;
  next_attempt_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  processed_at: NullableTimestamp;
  outcome: string | null;
};

/** An OAuth round trip in progress: the hash of its state, who started it and from which session (oauth-state.ts). */
export type OAuthStateRow = {
  state_hash: string;
  provider: string;
  user_id: string;
  session_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  return_to: 'web' | 'native';
};

export type IntegrationTables = {
  external_accounts: ExternalAccountRow;
  oauth_states: OAuthStateRow;
  external_backfills: ExternalBackfillRow;
  strava_webhook_inbox: StravaWebhookInboxRow;
};
