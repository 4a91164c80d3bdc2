import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { levelProgress } from '../../domain/gamification/levels.ts';
import { streakAsOf } from '../../domain/gamification/streaks.ts';
import { weekStartOf } from '../../domain/shared/week.ts';
import { tierForLevel } from '../../domain/gamification/tiers.ts';
import { pausedWeeksOf } from '../goal-pauses/pause-queries.ts';
import type { GamificationTables } from './tables.ts';

/** Total XP, level and tier of a user, from the user_xp read model (0 XP before the first award). */
export async function levelInfo(db: Kysely<object>, userId: string) {
  const row = await db
    .withTables<GamificationTables>()
    .selectFrom('user_xp')
    .select('total_xp')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const total = Math.max(0, row?.total_xp ?? 0);
  const progress = levelProgress(total);
  return {
    total_xp: total,
    level: progress.level,
    level_label: progress.label,
    tier: tierForLevel(progress.level).name,
    xp_into_level: progress.xpIntoLevel,
    xp_for_level: progress.xpForLevel,
    xp_to_next_level: progress.xpToNextLevel,
  };
}

/**
 * The user's streak in weeks as of `now` in their zone: the stored figures are as of the last settled week, and a
 * whole week without a completed goal ends the current streak; a paused week does not (issue 25).
 */
export async function streakInfo(db: Kysely<object>, userId: string, timeZone: string, now: Date) {
  const row = await db
    .withTables<GamificationTables>()
    .selectFrom('user_streaks')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const stored = {
    current: row?.current_streak ?? 0,
    longest: row?.longest_streak ?? 0,
    lastCompletedWeek: row?.last_completed_week ?? null,
  };
  const currentWeek = weekStartOf(Temporal.Instant.fromEpochMilliseconds(now.getTime()), timeZone);
  const streak = streakAsOf(stored, currentWeek, await pausedWeeksOf(db, userId));
  return {
    current_streak: streak.current,
    longest_streak: streak.longest,
    last_completed_week: streak.lastCompletedWeek,
  };
}
