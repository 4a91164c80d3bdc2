import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { randomCode, randomToken, safeEqual, sha256 } from './secrets.ts';
import type { AuthTables, OneTimeTokenRow } from './tables.ts';

/** What a mailed token is for. */
export type TokenKind = OneTimeTokenRow['kind'];

/** A token just issued: the link secret and the 6-digit code, both shown once (in the mail). */
export type IssuedToken = { linkToken: string; code: string };

/**
 * Code attempts after which a token's code is burnt, so 6 digits cannot be guessed. Only the code: the link in the
 * same mail (256 random bits, not guessable) keeps working, so someone burning codes cannot lock the owner out of
 * a recovery or sign-in mail.
 */
export const MAX_CODE_ATTEMPTS = 5;

const TTL_SECONDS: Record<TokenKind, number> = {
  signup: 24 * 3600,
  magiclink: 3600,
  recovery: 3600,
  email_change: 3600,
  reauthentication: 600,
};

/** Mailed one-time tokens: issued, then consumed once by link or by code, before they expire. */
export interface OneTimeTokens {
  /** Issues a token; any earlier unused token of the same kind for the user stops working. */
  issue(input: {
    userId: string;
    kind: TokenKind;
    email: string;
    redirectTo?: string | null;
    codeChallenge?: string | null;
    codeChallengeMethod?: string | null;
  }): Promise<IssuedToken>;
  consumeLink(linkToken: string, kinds: readonly TokenKind[]): Promise<OneTimeTokenRow | null>;
  /** The newest live token's row if `code` is its code; every call counts one of its MAX_CODE_ATTEMPTS first. */
  consumeCode(input: {
    email?: string;
    userId?: string;
    code: string;
    kinds: readonly TokenKind[];
  }): Promise<OneTimeTokenRow | null>;
}

/** OneTimeTokens over auth_one_time_tokens; secrets stored as SHA-256 only. */
export function createOneTimeTokens(options: { db: Db; clock: Clock }): OneTimeTokens {
  const db = options.db.withTables<AuthTables>();
  const codeHash = (id: string, code: string) => sha256(`${id}:${code}`);
  const usable = (row: OneTimeTokenRow, at: Date) => !row.used_at && new Date(row.expires_at).getTime() > at.getTime();

  async function markUsed(id: string, at: Date): Promise<boolean> {
    const result = await db
      .updateTable('auth_one_time_tokens')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    // Two concurrent uses: only the one that flipped used_at wins.
    return Number(result.numUpdatedRows) === 1;
  }

  return {
    async issue(input) {
      const at = options.clock.now();
      await db
        .updateTable('auth_one_time_tokens')
        .set({ used_at: at })
        .where('user_id', '=', input.userId)
        .where('kind', '=', input.kind)
        .where('used_at', 'is', null)
        .execute();
      const id = randomUUID();
      const linkToken = randomToken();
      const code = randomCode();
      await db
        .insertInto('auth_one_time_tokens')
        .values({
          id,
          user_id: input.userId,
          kind: input.kind,
          email: input.email,
          link_hash: sha256(linkToken),
          code_hash: codeHash(id, code),
          code_challenge: input.codeChallenge ?? null,
          code_challenge_method: input.codeChallengeMethod ?? null,
          redirect_to: input.redirectTo ?? null,
          attempts: 0,
          created_at: at,
          expires_at: new Date(at.getTime() + TTL_SECONDS[input.kind] * 1000),
        })
        .execute();
      return { linkToken, code };
    },
    async consumeLink(linkToken, kinds) {
      const at = options.clock.now();
      const row = await db
        .selectFrom('auth_one_time_tokens')
        .selectAll()
        .where('link_hash', '=', sha256(linkToken))
        .where('kind', 'in', kinds)
        .executeTakeFirst();
      if (!row || !usable(row, at)) return null;
      return (await markUsed(row.id, at)) ? row : null;
    },
    async consumeCode({ email, userId, code, kinds }) {
      const at = options.clock.now();
      // The newest live token of these kinds (a burnt code still shadows older ones: no extra guesses).
      let newest = db
        .selectFrom('auth_one_time_tokens')
        .select('id')
        .where('kind', 'in', kinds)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .orderBy('created_at', 'desc')
        .limit(1);
      if (email) newest = newest.where('email', '=', email);
      if (userId) newest = newest.where('user_id', '=', userId);
      // Count the attempt BEFORE looking at the code, in one statement: parallel guesses each take one of the
      // MAX_CODE_ATTEMPTS slots or none, so no amount of parallelism checks more than MAX_CODE_ATTEMPTS codes.
      const row = await db
        .updateTable('auth_one_time_tokens')
        .set({ attempts: sql<number>`attempts + 1` })
        .where('id', '=', newest)
        .where('used_at', 'is', null)
        .where('attempts', '<', MAX_CODE_ATTEMPTS)
        .returningAll()
        .executeTakeFirst();
      if (!row) return null;
      if (!safeEqual(row.code_hash, codeHash(row.id, code))) return null;
      return (await markUsed(row.id, at)) ? row : null;
    },
  };
}
