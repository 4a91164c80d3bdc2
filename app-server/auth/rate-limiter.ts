import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { AuthTables } from './tables.ts';

/** A limit: at most `max` events per `windowSeconds`. */
export type Limit = { readonly max: number; readonly windowSeconds: number };

/** The verdict for one key: a slot was taken (allowed), or the seconds until the window ends. */
export type Verdict = {
  readonly allowed: boolean;
  readonly retryAfter: number;
  /** The window the slot was taken in, so `release` gives it back to that window only. */
  readonly windowStart: Date | null;
};

/**
 * Fixed-window counters in the database, so every API instance counts together.
 *
 * Why "take a slot, then check the secret": checking the counter, then the secret, then counting a failure lets
 * any number of parallel requests through the check before the first failure is counted (FACTS.md). `hit` takes a
 * slot in ONE statement (an upsert whose update only happens while a slot is free), so N parallel requests take at
 * most `max` slots and the stored count never exceeds `max`. A caller whose secret turned out right gives its slot
 * back with `release` (only failures should stay counted); one whose secret was wrong keeps it.
 */
export interface RateLimiter {
  /** Takes a slot if one is free in the current window. */
  hit(key: string, limit: Limit): Promise<Verdict>;
  /** Gives a taken slot back (a success, or a request refused by another limit before its secret was checked). */
  release(key: string, taken: Verdict): Promise<void>;
  reset(key: string): Promise<void>;
}

/** The database-backed RateLimiter. */
export function createRateLimiter(options: { db: Db; clock: Clock }): RateLimiter {
  const db = options.db.withTables<AuthTables>();
  const retryAfter = (windowStart: Date, limit: Limit, at: Date) =>
    Math.max(1, Math.ceil((windowStart.getTime() + limit.windowSeconds * 1000 - at.getTime()) / 1000));
  return {
    async hit(key, limit) {
      const at = options.clock.now();
      const windowFloor = new Date(at.getTime() - limit.windowSeconds * 1000);
      const expired = sql<boolean>`auth_rate_limits.window_start <= ${windowFloor}`;
      const taken = await db
        .insertInto('auth_rate_limits')
        .values({ key, window_start: at, count: 1 })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              count: sql<number>`CASE WHEN ${expired} THEN 1 ELSE auth_rate_limits.count + 1 END`,
              window_start: sql<Date>`CASE WHEN ${expired} THEN ${at} ELSE auth_rate_limits.window_start END`,
            })
            // No free slot: the row is left as it is and nothing is returned.
            .where((eb) => eb.or([expired, eb('auth_rate_limits.count', '<', limit.max)])),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirst();
      if (taken) return { allowed: true, retryAfter: 0, windowStart: new Date(taken.window_start) };
      const full = await db
        .selectFrom('auth_rate_limits')
        .select('window_start')
        .where('key', '=', key)
        .executeTakeFirst();
      return {
        allowed: false,
        retryAfter: full ? retryAfter(new Date(full.window_start), limit, at) : 1,
        windowStart: null,
      };
    },
    async release(key, taken) {
      if (!taken.allowed || !taken.windowStart) return;
      await db
        .updateTable('auth_rate_limits')
        .set({ count: sql<number>`count - 1` })
        .where('key', '=', key)
        .where('window_start', '=', taken.windowStart)
        .where('count', '>', 0)
        .execute();
    },
    async reset(key) {
      await db.deleteFrom('auth_rate_limits').where('key', '=', key).execute();
    },
  };
}

/**
 * Takes a slot under every key in order. If one refuses, the slots already taken are given back (nothing was
 * checked), and the refusing key with its verdict is returned; otherwise every slot, for the caller to keep or
 * release.
 */
export async function hitAll(
  limiter: RateLimiter,
  limits: readonly (readonly [key: string, limit: Limit])[],
): Promise<{ refused: (Verdict & { key: string }) | null; taken: (readonly [string, Verdict])[] }> {
  const taken: (readonly [string, Verdict])[] = [];
  for (const [key, limit] of limits) {
    const verdict = await limiter.hit(key, limit);
    if (!verdict.allowed) {
      for (const [takenKey, slot] of taken) await limiter.release(takenKey, slot);
      return { refused: { ...verdict, key }, taken: [] };
    }
    taken.push([key, verdict]);
  }
  return { refused: null, taken };
}

/** The limits of the auth API (per IP address, per account and per mail kind), named in one place. */
export const AUTH_LIMITS = {
  /** Failed sign-ins from one IP for one account: the attacker's IP is blocked, the owner elsewhere is not. */
  signInFailuresPerIpAndAccount: { max: 5, windowSeconds: 15 * 60 },
  /** Failed sign-ins from one IP across accounts (credential stuffing). */
  signInFailuresPerIp: { max: 20, windowSeconds: 15 * 60 },
  /**
   * Failed sign-ins for one account from addresses it never signed in from (a botnet spreading guesses). Sign-ins
   * from the owner's usual addresses do not count against it and are not refused by it, and the mailed links
   * (recovery, magic link) always work, so the owner cannot be locked out.
   */
  signInFailuresPerAccountFromNewAddresses: { max: 10, windowSeconds: 15 * 60 },
  signUpsPerIp: { max: 10, windowSeconds: 60 * 60 },
  /** Mails of one kind (confirmation, recovery, magic link, e-mail change, reauthentication) to one address. */
  emailsPerAddressAndKind: { max: 1, windowSeconds: 60 },
  emailsPerAddressAndKindHourly: { max: 6, windowSeconds: 60 * 60 },
  emailRequestsPerIp: { max: 30, windowSeconds: 60 * 60 },
  /** Failed code verifications (e-mail OTP, token hash) per IP. */
  verifyFailuresPerIp: { max: 30, windowSeconds: 15 * 60 },
  /** Wrong TOTP codes per user, so one stolen password cannot brute-force the second factor. */
  mfaFailuresPerUser: { max: 5, windowSeconds: 15 * 60 },
} as const satisfies Record<string, Limit>;
