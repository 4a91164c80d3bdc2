import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { authErrors } from './auth-error.ts';
import { LiveSessions } from './live-sessions.ts';
import { randomToken, sha256 } from './secrets.ts';
import type { AuthTables, SessionRow } from './tables.ts';

/** One authentication method used in a session (the `amr` claim). */
export type AmrEntry = { method: string; timestamp: number };

/** A session as the rest of the module sees it. */
export type Session = {
  id: string;
  userId: string;
  aal: 'aal1' | 'aal2';
  amr: AmrEntry[];
  createdAt: Date;
};

/** Sessions and their refresh-token families. */
export interface SessionStore {
  create(input: { userId: string; method: string; userAgent?: string | null; ip?: string | null }): Promise<{
    session: Session;
    refreshToken: string;
  }>;
  /** Exchanges a refresh token for a new one (single use). Reuse after the grace revokes the whole family. */
  rotate(refreshToken: string): Promise<{ session: Session; refreshToken: string }>;
  /** The live session, or null when it was signed out or has outlived its idle or absolute lifetime. */
  active(sessionId: string): Promise<Session | null>;
  /**
   * The live session of `userId` whose account still exists (not erased): what every product request checks. Exact
   * as of a snapshot taken after the call began, usually without reading the session (live-sessions.ts). Null when
   * signed out, expired, someone else's, or the account is gone.
   */
  activeForUser(sessionId: string, userId: string): Promise<Session | null>;
  /** Raises a session to aal2 after an MFA verification; returns a fresh refresh token for it. */
  raiseToAal2(sessionId: string, method: string, factorId: string): Promise<{ session: Session; refreshToken: string }>;
  revoke(sessionId: string): Promise<void>;
  revokeAll(userId: string, except?: string): Promise<void>;
}

export interface SessionStoreOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly idleSeconds: number;
  readonly absoluteSeconds: number;
  readonly reuseGraceSeconds: number;
  /** Live sessions remembered between requests (live-sessions.ts); 0 reads the session on every request. */
  readonly rememberedSessions?: number;
  /** The session epoch read after the current request arrived, shared with other fresh reads (live-sessions.ts). */
  readonly freshEpoch?: () => Promise<number>;
}

type Tx = Transaction<AuthTables>;

function toSession(row: SessionRow): Session {
  return { id: row.id, userId: row.user_id, aal: row.aal, amr: row.amr, createdAt: new Date(row.created_at) };
}

/** A SessionStore over auth_sessions and auth_refresh_tokens (tokens kept as SHA-256 only). */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const db = options.db.withTables<AuthTables>();
  const now = () => options.clock.now();
  const live = new LiveSessions(options.db, {
    capacity: options.rememberedSessions ?? 50_000,
    epoch: options.freshEpoch,
  });

  function expired(row: SessionRow, at: Date): boolean {
    return (
      new Date(row.not_after).getTime() <= at.getTime() ||
      new Date(row.refreshed_at).getTime() + options.idleSeconds * 1000 <= at.getTime()
    );
  }

  async function issueRefresh(tx: Tx, sessionId: string, userId: string, at: Date): Promise<string> {
    const token = randomToken(24);
    await tx
      .insertInto('auth_refresh_tokens')
      .values({ token_hash: sha256(token), session_id: sessionId, user_id: userId, created_at: at })
      .execute();
    return token;
  }

  return {
    async create(input) {
      const at = now();
      const row: SessionRow = {
        id: randomUUID(),
        user_id: input.userId,
        aal: 'aal1',
        amr: [{ method: input.method, timestamp: Math.floor(at.getTime() / 1000) }],
        factor_id: null,
        created_at: at,
        refreshed_at: at,
        not_after: new Date(at.getTime() + options.absoluteSeconds * 1000),
        user_agent: input.userAgent ?? null,
        ip: input.ip ?? null,
      };
      const refreshToken = await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('auth_sessions')
          .values({ ...row, amr: JSON.stringify(row.amr) })
          .execute();
        return issueRefresh(tx, row.id, row.user_id, at);
      });
      return { session: toSession(row), refreshToken };
    },

    async rotate(refreshToken) {
      const at = now();
      const outcome = await db.transaction().execute(async (tx) => {
        const token = await tx
          .selectFrom('auth_refresh_tokens')
          .selectAll()
          .where('token_hash', '=', sha256(refreshToken))
          .forUpdate()
          .executeTakeFirst();
        if (!token) return { error: authErrors.refreshTokenNotFound() } as const;
        const session = await tx
          .selectFrom('auth_sessions')
          .selectAll()
          .where('id', '=', token.session_id)
          .forUpdate()
          .executeTakeFirst();
        if (!session) return { error: authErrors.refreshTokenNotFound() } as const;
        if (expired(session, at)) {
          await tx.deleteFrom('auth_sessions').where('id', '=', session.id).execute();
          return { error: authErrors.sessionExpired() } as const;
        }
        if (token.rotated_at) {
          const since = at.getTime() - new Date(token.rotated_at).getTime();
          if (since > options.reuseGraceSeconds * 1000) {
            // A rotated token came back after the grace: someone holds a copy. End the whole family.
            await tx.deleteFrom('auth_sessions').where('id', '=', session.id).execute();
            return { error: authErrors.refreshTokenReused() } as const;
          }
          // Within the grace a client that lost the answer retries: retire whatever the family holds now.
          await tx
            .updateTable('auth_refresh_tokens')
            .set({ rotated_at: at })
            .where('session_id', '=', session.id)
            .where('rotated_at', 'is', null)
            .execute();
        } else {
          await tx.updateTable('auth_refresh_tokens').set({ rotated_at: at }).where('id', '=', token.id).execute();
        }
        await tx.updateTable('auth_sessions').set({ refreshed_at: at }).where('id', '=', session.id).execute();
        const next = await issueRefresh(tx, session.id, session.user_id, at);
        return { session: toSession(session), refreshToken: next } as const;
      });
      // The error is returned, not thrown, so the revocation above commits.
      if ('error' in outcome) throw outcome.error;
      return outcome;
    },

    async active(sessionId) {
      const row = await db.selectFrom('auth_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
      if (!row || expired(row, now())) return null;
      return toSession(row);
    },

    async activeForUser(sessionId, userId) {
      const row = await live.find(sessionId, userId, (remembered) => !expired(remembered, now()));
      if (!row || expired(row, now())) return null;
      return toSession(row);
    },

    async raiseToAal2(sessionId, method, factorId) {
      const at = now();
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom('auth_sessions')
          .selectAll()
          .where('id', '=', sessionId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const amr = [
          ...row.amr.filter((e) => e.method !== method),
          { method, timestamp: Math.floor(at.getTime() / 1000) },
        ];
        await tx
          .updateTable('auth_sessions')
          .set({ aal: 'aal2', amr: JSON.stringify(amr), factor_id: factorId, refreshed_at: at })
          .where('id', '=', sessionId)
          .execute();
        // Older refresh tokens of this session would mint aal2 tokens too; they are retired here.
        await tx
          .updateTable('auth_refresh_tokens')
          .set({ rotated_at: at })
          .where('session_id', '=', sessionId)
          .where('rotated_at', 'is', null)
          .execute();
        const refreshToken = await issueRefresh(tx, sessionId, row.user_id, at);
        return { session: { ...toSession(row), aal: 'aal2' as const, amr }, refreshToken };
      });
    },

    async revoke(sessionId) {
      await db.deleteFrom('auth_sessions').where('id', '=', sessionId).execute();
    },

    async revokeAll(userId, except) {
      let query = db.deleteFrom('auth_sessions').where('user_id', '=', userId);
      if (except) query = query.where('id', '!=', except);
      await query.execute();
    },
  };
}
