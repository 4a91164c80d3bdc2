import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { authErrors } from './auth-error.ts';
import { randomToken, safeEqual, sha256 } from './secrets.ts';
import type { AuthTables } from './tables.ts';

/** An auth code is exchanged within this many seconds of the e-mailed link being opened. */
const AUTH_CODE_TTL_SECONDS = 300;

/** PKCE: a verified e-mail link yields an auth code that only the holder of the code verifier can exchange. */
export interface FlowStates {
  create(input: {
    userId: string;
    codeChallenge: string;
    method: string;
    authenticationMethod: string;
  }): Promise<string>;
  /** The user id and method for a valid code and matching verifier; throws the client's PKCE errors otherwise. */
  exchange(authCode: string, codeVerifier: string): Promise<{ userId: string; authenticationMethod: string }>;
}

/** S256 or plain, as RFC 7636 defines them. */
function challengeOf(verifier: string, method: string): string {
  return method.toLowerCase() === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
}

/** FlowStates over auth_flow_states (codes stored hashed). */
export function createFlowStates(options: { db: Db; clock: Clock }): FlowStates {
  const db = options.db.withTables<AuthTables>();
  return {
    async create(input) {
      const at = options.clock.now();
      const code = randomUUID() + randomToken(8);
      await db
        .insertInto('auth_flow_states')
        .values({
          id: randomUUID(),
          code_hash: sha256(code),
          user_id: input.userId,
          code_challenge: input.codeChallenge,
          code_challenge_method: input.method,
          authentication_method: input.authenticationMethod,
          created_at: at,
          expires_at: new Date(at.getTime() + AUTH_CODE_TTL_SECONDS * 1000),
        })
        .execute();
      return code;
    },
    async exchange(authCode, codeVerifier) {
      const at = options.clock.now();
      const row = await db
        .selectFrom('auth_flow_states')
        .selectAll()
        .where('code_hash', '=', sha256(authCode))
        .executeTakeFirst();
      if (!row || row.used_at || new Date(row.expires_at).getTime() <= at.getTime()) {
        throw authErrors.flowStateNotFound();
      }
      if (!safeEqual(challengeOf(codeVerifier, row.code_challenge_method), row.code_challenge)) {
        throw authErrors.badCodeVerifier();
      }
      const used = await db
        .updateTable('auth_flow_states')
        .set({ used_at: at })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw authErrors.flowStateNotFound();
      return { userId: row.user_id, authenticationMethod: row.authentication_method };
    },
  };
}
