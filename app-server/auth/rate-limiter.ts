import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { AuthTables } from './tables.ts';

/** A limit: at most `max` events per `windowSeconds`. */
export type Limit = { readonly max: number; readonly windowSeconds: number };

/** The verdict for one key: allowed, or the seconds until the window ends. */
export type Verdict = { readonly allowed: boolean; readonly retryAfter: number };

/**
 * Fixed-window counters in the database, so every API instance counts together. `hit` counts and judges in one
 * statement (an upsert), so concurrent requests cannot both slip under the limit.
 */
export interface RateLimiter {
  hit(key: string, limit: Limit): Promise<Verdict>;
  /** Judges without counting (e.g. before checking a password, so only failures count). */
  peek(key: string, limit: Limit): Promise<Verdict>;
  reset(key: string): Promise<void>;
}

/** The database-backed RateLimiter. */
export function createRateLimiter(options: { db: Db; clock: Clock }): RateLimiter {
  const db = options.db.withTables<AuthTables>();
  const verdict = (count: number, windowStart: Date, limit: Limit, at: Date): Verdict => {
    const ends = new Date(windowStart).getTime() + limit.windowSeconds * 1000;
    return { allowed: count <= limit.max, retryAfter: Math.max(1, Math.ceil((ends - at.getTime()) / 1000)) };
  };
  return {
    async hit(key, limit) {
      const at = options.clock.now();
      const windowFloor = new Date(at.getTime() - limit.windowSeconds * 1000);
      const row = await db
        .insertInto('auth_rate_limits')
        .values({ key, window_start: at, count: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql<number>`CASE WHEN auth_rate_limits.window_start <= ${windowFloor} THEN 1 ELSE auth_rate_limits.count + 1 END`,
            window_start: sql<Date>`CASE WHEN auth_rate_limits.window_start <= ${windowFloor} THEN ${at} ELSE auth_rate_limits.window_start END`,
          }),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow();
      return verdict(row.count, new Date(row.window_start), limit, at);
    },
    async peek(key, limit) {
      const at = options.clock.now();
      const row = await db.selectFrom('auth_rate_limits').selectAll().where('key', '=', key).executeTakeFirst();
      if (!row || new Date(row.window_start).getTime() + limit.windowSeconds * 1000 <= at.getTime()) {
        return { allowed: true, retryAfter: 0 };
      }
      // Blocked once the failures have reached the limit.
      return verdict(row.count + 1, new Date(row.window_start), limit, at);
    },
    async reset(key) {
      await db.deleteFrom('auth_rate_limits').where('key', '=', key).execute();
    },
  };
}

/** The limits of the auth API (per IP address and per account), named in one place. */
export const AUTH_LIMITS = {
  /** Failed sign-ins from one IP for one account: the attacker's IP is blocked, the owner elsewhere is not. */
  signInFailuresPerIpAndAccount: { max: 5, windowSeconds: 15 * 60 },
  /** Failed sign-ins from one IP across accounts (credential stuffing). */
  signInFailuresPerIp: { max: 20, windowSeconds: 15 * 60 },
  signUpsPerIp: { max: 10, windowSeconds: 60 * 60 },
  /** Mails to one address (sign-up, recovery, OTP, resend, reauthentication). */
  emailsPerAddress: { max: 1, windowSeconds: 60 },
  emailsPerAddressHourly: { max: 6, windowSeconds: 60 * 60 },
  emailRequestsPerIp: { max: 30, windowSeconds: 60 * 60 },
  /** Code guesses (OTP, MFA) per IP. */
  verifyFailuresPerIp: { max: 30, windowSeconds: 15 * 60 },
  /** Wrong TOTP codes per user, so one stolen password cannot brute-force the second factor. */
  mfaFailuresPerUser: { max: 5, windowSeconds: 15 * 60 },
} as const satisfies Record<string, Limit>;
