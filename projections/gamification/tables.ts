import { type Kysely, sql, type Transaction } from 'kysely';
import type { TableNames } from '../engine/projector.ts';

/** The gamification read models (§3 xp_history, user_streaks, badges, and each user's total XP and level). */
export type GamificationTable = 'xp_history' | 'user_xp' | 'user_streaks' | 'badges';

/** One row of xp_history: an award or a correction, identified by the event that recorded it. */
export type XpHistoryRow = {
  id: string;
  user_id: string;
  source_type: string;
  source_id: string;
  xp_amount: number;
  /** Run XP before the surge bonus; equals xp_amount for other sources. */
  base_xp: number;
  surge_bonus: number;
  xp_multiplier: number;
  description: string;
  created_at: Date;
  global_position: number;
};

/** A user's XP total and the level and tier it gives. */
export type UserXpRow = { user_id: string; total_xp: number; level: number; tier: string; updated_at: Date };

/** §3 user_streaks; `current_streak` is as of the last settlement (the API ages it with the clock). */
export type UserStreakRow = {
  user_id: string;
  current_streak: number;
  longest_streak: number;
  last_completed_week: string | null;
  updated_at: Date;
};

/** §3 Badge earned. */
export type BadgeRow = { id: string; user_id: string; badge_type: string; earned_at: Date; celebrated_at: Date | null };

/** Kysely view of the tables under their live names (queries). */
export type GamificationTables = {
  xp_history: XpHistoryRow;
  user_xp: UserXpRow;
  user_streaks: UserStreakRow;
  badges: BadgeRow;
};

/** Creates the four tables and their indexes under the given physical names. */
export async function createGamificationTables(
  db: Kysely<object> | Transaction<object>,
  t: TableNames<GamificationTable>,
): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.xp_history)} (
      id text PRIMARY KEY,
      user_id text NOT NULL,
      source_type text NOT NULL,
      source_id text NOT NULL,
      xp_amount integer NOT NULL,
      base_xp integer NOT NULL,
      surge_bonus integer NOT NULL,
      xp_multiplier numeric NOT NULL,
      description text NOT NULL,
      created_at timestamptz NOT NULL,
      global_position bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS ${sql.id(`${t.xp_history}_user_source`)}
    ON ${sql.table(t.xp_history)} (user_id, source_type, source_id)`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.user_xp)} (
      user_id text PRIMARY KEY,
      total_xp integer NOT NULL,
      level integer NOT NULL,
      tier text NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.user_streaks)} (
      user_id text PRIMARY KEY,
      current_streak integer NOT NULL,
      longest_streak integer NOT NULL,
      last_completed_week text,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.badges)} (
      id text PRIMARY KEY,
      user_id text NOT NULL,
      badge_type text NOT NULL,
      earned_at timestamptz NOT NULL,
      celebrated_at timestamptz,
      UNIQUE (user_id, badge_type)
    )`.execute(db);
}
