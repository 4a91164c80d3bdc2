import { sqlRecords } from '../sql-records.ts';
import { sql, type Transaction } from 'kysely';
import { levelForXp } from '../../domain/gamification/levels.ts';
import { tierForLevel } from '../../domain/gamification/tiers.ts';
import type { Projector, TableNames } from '../engine/projector.ts';
import { foldBatch, type GamificationBatch } from './fold-batch.ts';
import { createGamificationTables, type GamificationTable } from './tables.ts';

type Tables = TableNames<GamificationTable>;

async function writeHistory(tx: Transaction<object>, t: Tables, batch: GamificationBatch) {
  if (batch.history.length === 0) return;
  await sql`
    INSERT INTO ${sql.table(t.xp_history)}
      (id, user_id, source_type, source_id, xp_amount, base_xp, surge_bonus, xp_multiplier, description, created_at,
       global_position)
    SELECT * FROM ${sqlRecords(batch.history, 'id text, user_id text, source_type text, source_id text, xp_amount integer, base_xp integer, surge_bonus integer, xp_multiplier numeric, description text, created_at timestamptz, global_position bigint')} AS r
    ON CONFLICT (id) DO NOTHING`.execute(tx);
}

async function writeTotals(tx: Transaction<object>, t: Tables, batch: GamificationBatch) {
  if (batch.xpDelta.size === 0) return;
  // Level and tier follow from the new total, so read the old totals first (one query), then upsert all at once.
  const users = [...batch.xpDelta.keys()];
  const { rows } = await sql<{ user_id: string; total_xp: number }>`
    SELECT user_id, total_xp FROM ${sql.table(t.user_xp)} WHERE user_id = ANY(${users})`.execute(tx);
  const before = new Map(rows.map((r) => [r.user_id, r.total_xp]));
  const next = [...batch.xpDelta].map(([userId, { delta, at }]) => {
    const total = (before.get(userId) ?? 0) + delta;
    const level = levelForXp(Math.max(0, total));
    return { user_id: userId, total_xp: total, level, tier: tierForLevel(level).name, updated_at: at };
  });
  await sql`
    INSERT INTO ${sql.table(t.user_xp)} AS u (user_id, total_xp, level, tier, updated_at)
    SELECT * FROM ${sqlRecords(next, 'user_id text, total_xp integer, level integer, tier text, updated_at timestamptz')} AS r
    ON CONFLICT (user_id) DO UPDATE SET total_xp = excluded.total_xp, level = excluded.level, tier = excluded.tier,
      updated_at = excluded.updated_at`.execute(tx);
}

async function upsertStreaks(tx: Transaction<object>, t: Tables, rows: unknown[], overwrite: boolean) {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO ${sql.table(t.user_streaks)} AS s (user_id, current_streak, longest_streak, last_completed_week, updated_at)
    SELECT user_id, current_streak, longest_streak, last_completed_week, updated_at
    FROM ${sqlRecords(rows, 'user_id text, current_streak integer, longest_streak integer, last_completed_week text, updated_at timestamptz')} AS r
    ON CONFLICT (user_id) DO ${
      overwrite
        ? sql`UPDATE SET current_streak = excluded.current_streak,
      longest_streak = excluded.longest_streak, last_completed_week = excluded.last_completed_week,
      updated_at = excluded.updated_at`
        : sql`NOTHING`
    }`.execute(tx);
}

async function writeStreaks(tx: Transaction<object>, t: Tables, batch: GamificationBatch) {
  const rows = [...batch.streaks.values()];
  // The zero row written at registration never overwrites a settled streak.
  await upsertStreaks(
    tx,
    t,
    rows.filter((r) => r.initial),
    false,
  );
  await upsertStreaks(
    tx,
    t,
    rows.filter((r) => !r.initial),
    true,
  );
}

async function writeBadges(tx: Transaction<object>, t: Tables, batch: GamificationBatch) {
  if (batch.earned.size > 0) {
    await sql`
      INSERT INTO ${sql.table(t.badges)} (id, user_id, badge_type, earned_at, celebrated_at)
      SELECT * FROM ${sqlRecords([...batch.earned.values()], 'id text, user_id text, badge_type text, earned_at timestamptz, celebrated_at timestamptz')} AS r
      ON CONFLICT (id) DO NOTHING`.execute(tx);
  }
  if (batch.celebrated.size > 0) {
    await sql`
      UPDATE ${sql.table(t.badges)} AS b SET celebrated_at = r.celebrated_at
      FROM ${sqlRecords([...batch.celebrated.values()], 'user_id text, badge_type text, celebrated_at timestamptz')} AS r
      WHERE b.user_id = r.user_id AND b.badge_type = r.badge_type`.execute(tx);
  }
}

/**
 * XP history, totals with level and tier, streaks and badges, from the XP ledger and badge streams. Each batch is
 * folded in memory first and written with a handful of statements, whatever its size.
 */
export const gamificationProjector: Projector<GamificationTable> = {
  name: 'gamification',
  version: 1,
  eventTypes: [
    'RunXpAwarded',
    'RunXpRevoked',
    'WeekSettled',
    'XpAwarded',
    'BadgeEarned',
    'BadgeCelebrated',
    'UserRegistered',
  ],
  tables: ['xp_history', 'user_xp', 'user_streaks', 'badges'],
  createTables: createGamificationTables,
  async apply(events, { tx, tables, announce }) {
    const batch = foldBatch(events);
    await writeHistory(tx, tables, batch);
    await writeTotals(tx, tables, batch);
    await writeStreaks(tx, tables, batch);
    await writeBadges(tx, tables, batch);
    for (const [userId, topic] of batch.announcements) announce(userId, topic);
  },
};
