import type { Kysely } from 'kysely';
import { levelProgress } from '../../../domain/gamification/levels.ts';
import { tierForLevel } from '../../../domain/gamification/tiers.ts';
import type { GamificationTables } from '../../../projections/gamification/tables.ts';

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
