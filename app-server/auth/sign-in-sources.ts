import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { sha256 } from './secrets.ts';
import type { AuthTables } from './tables.ts';

/** An address counts as usual for this long after the last successful sign-in from it. */
const USUAL_FOR_DAYS = 90;

/**
 * The addresses a user signed in from successfully (by password, a mailed link or code, or PKCE). A sign-in from
 * one of them is the owner's usual way in, which the per-account sign-in limit must never block.
 */
export interface SignInSources {
  /** Records a successful sign-in of `userId` from `ip`. */
  remember(userId: string, ip: string): Promise<void>;
  /** Whether `userId` signed in successfully from `ip` within the last 90 days ('' = no user: always false). */
  isUsual(userId: string, ip: string): Promise<boolean>;
}

/** SignInSources over auth_sign_in_sources; addresses are stored only as a per-user hash. */
export function createSignInSources(options: { db: Db; clock: Clock }): SignInSources {
  const db = options.db.withTables<AuthTables>();
  const hashOf = (userId: string, ip: string) => sha256(`${userId}\n${ip}`);
  return {
    async remember(userId, ip) {
      const at = options.clock.now();
      await db
        .insertInto('auth_sign_in_sources')
        .values({ user_id: userId, source_hash: hashOf(userId, ip), last_success_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'source_hash']).doUpdateSet({ last_success_at: at }))
        .execute();
    },
    async isUsual(userId, ip) {
      // The same query for an unknown account (userId ''), so both take the same time.
      const since = new Date(options.clock.now().getTime() - USUAL_FOR_DAYS * 24 * 3600 * 1000);
      const row = await db
        .selectFrom('auth_sign_in_sources')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('source_hash', '=', hashOf(userId, ip))
        .where('last_success_at', '>', since)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
