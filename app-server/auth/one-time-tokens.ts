import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { randomCode, randomToken, safeEqual, sha256 } from './secrets.ts';
import type { AuthTables, OneTimeTokenRow } from './tables.ts';

/** What a mailed token is for. */
export type TokenKind = OneTimeTokenRow['kind'];

/** A token just issued: the link secret and the 6-digit code, both shown once (in the mail). */
export type IssuedToken = { linkToken: string; code: string };

/** Wrong codes after which a token is burnt, so 6 digits cannot be guessed. */
const MAX_CODE_ATTEMPTS = 5;

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
      let query = db
        .selectFrom('auth_one_time_tokens')
        .selectAll()
        .where('kind', 'in', kinds)
        .where('used_at', 'is', null)
        .orderBy('created_at', 'desc')
        .limit(1);
      if (email) query = query.where('email', '=', email);
      if (userId) query = query.where('user_id', '=', userId);
      const row = await query.executeTakeFirst();
      if (!row || !usable(row, at)) return null;
      if (!safeEqual(row.code_hash, codeHash(row.id, code))) {
        const attempts = row.attempts + 1;
        await db
          .updateTable('auth_one_time_tokens')
          .set({ attempts, ...(attempts >= MAX_CODE_ATTEMPTS ? { used_at: at } : {}) })
          .where('id', '=', row.id)
          .execute();
        return null;
      }
      return (await markUsed(row.id, at)) ? row : null;
    },
  };
}
