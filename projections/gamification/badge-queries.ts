import type { Kysely } from 'kysely';
import type { BadgeRow, GamificationTables } from './tables.ts';

/** One of the user's badges, or undefined (another user's badge reads as absent: ids do not reveal whose they are). */
export function findOwnBadge(db: Kysely<object>, userId: string, id: string): Promise<BadgeRow | undefined> {
  return db
    .withTables<GamificationTables>()
    .selectFrom('badges')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The user's badges, newest first; `uncelebrated` keeps only those not yet (or only those already) celebrated. */
export function listBadges(
  db: Kysely<object>,
  userId: string,
  query: { readonly uncelebrated?: boolean | undefined; readonly limit: number },
): Promise<BadgeRow[]> {
  let select = db.withTables<GamificationTables>().selectFrom('badges').selectAll().where('user_id', '=', userId);
  if (query.uncelebrated !== undefined) {
    select = select.where('celebrated_at', query.uncelebrated ? 'is' : 'is not', null);
  }
  return select.orderBy('earned_at', 'desc').orderBy('id').limit(query.limit).execute();
}
