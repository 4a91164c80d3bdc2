import type { Kysely } from 'kysely';
import { DEFAULT_TIME_ZONE } from '../../domain/shared/time-zone.ts';
import type { AuthTables } from './tables.ts';

/**
 * The user's time zone as their profile says now (§3 User timezone; the default before they set one): the zone a
 * new goal locks in, and the week a screen shows. Process managers, which must decide the same on every replay,
 * read the zone from the account stream as of the event instead (process/awards/award-context.ts).
 */
export async function userTimeZone(db: Kysely<object>, userId: string): Promise<string> {
  const row = await db
    .withTables<AuthTables>()
    .selectFrom('users')
    .select('timezone')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.timezone ?? DEFAULT_TIME_ZONE;
}
