import { type Kysely, sql, type Transaction } from 'kysely';
import type { TableNames } from '../engine/projector.ts';

/**
 * The feed read models: §3 feed_events and reactions, plus the projector's own memory (goal types for stake cards,
 * group membership to know whom to announce a change to). The memory tables are private to the projector.
 */
export type FeedTable = 'feed_events' | 'reactions' | 'feed_goal_types' | 'feed_group_members';

/**
 * What a card's `event_data` may hold (§3 event_data, less the author's name, joined when read): a run's figures,
 * a stake's goal type, charity and outcome, a badge's name. `source` and `charity_id` are kept for the query that
 * applies the Strava terms and names the charity; they are not sent as they are.
 */
export interface FeedEventData {
  readonly distance_km?: number;
  readonly duration_sec?: number;
  /** Seconds per km; null for a run without distance. */
  readonly pace?: number | null;
  readonly xp_earned?: number;
  readonly surge_bonus?: number;
  readonly source?: string;
  readonly goal_type?: string | null;
  readonly has_charity?: boolean;
  readonly charity_id?: string | null;
  readonly success?: boolean;
  /** Cents given to the charity by a lost stake. */
  readonly donation_amount?: number;
  readonly badge_type?: string;
  readonly badge_name?: string;
}

/** A feed row; `event_data` holds the §3 fields except the author's name, which is joined at query time. */
export type FeedEventRow = {
  id: string;
  user_id: string;
  group_id: string | null;
  event_type: 'run_completed' | 'stake_created' | 'stake_settled' | 'badge_earned';
  event_data: FeedEventData;
  is_visible: boolean;
  created_at: Date;
  global_position: number;
};

/** Creates the feed tables under the given physical names. */
export async function createFeedTables(db: Kysely<object> | Transaction<object>, t: TableNames<FeedTable>) {
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.feed_events)} (
      id text PRIMARY KEY,
      user_id text NOT NULL,
      group_id text,
      event_type text NOT NULL,
      event_data jsonb NOT NULL,
      is_visible boolean NOT NULL,
      created_at timestamptz NOT NULL,
      global_position bigint NOT NULL
    )`.execute(db);
  // A page of a feed (listFeed) walks each author's visible cards newest first and reads only the page's rows from the
  // table: the card's id and kind are in the index, so choosing the page needs no table row (an index-only scan).
  await sql`CREATE INDEX IF NOT EXISTS ${sql.id(`${t.feed_events}_visible_by_author`)}
    ON ${sql.table(t.feed_events)} (user_id, global_position DESC) INCLUDE (event_type, id) WHERE is_visible`.execute(
    db,
  );
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.reactions)} (
      feed_event_id text NOT NULL,
      user_id text NOT NULL,
      emoji text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (feed_event_id, user_id, emoji)
    )`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.feed_goal_types)} (goal_id text PRIMARY KEY, goal_type text NOT NULL)`.execute(
    db,
  );
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.feed_group_members)} (
      group_id text NOT NULL,
      user_id text NOT NULL,
      PRIMARY KEY (group_id, user_id)
    )`.execute(db);
}
