import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { AuthTables, ChallengeRow, FactorRow } from './tables.ts';

/** A factor as the client's `Factor` type shows it. */
export type FactorJson = {
  id: string;
  friendly_name?: string;
  factor_type: 'totp';
  status: 'verified' | 'unverified';
  created_at: string;
  updated_at: string;
  last_challenged_at?: string;
};

/** The client's view of a factor row. */
export function factorJson(row: FactorRow): FactorJson {
  return {
    id: row.id,
    ...(row.friendly_name ? { friendly_name: row.friendly_name } : {}),
    factor_type: row.factor_type,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    ...(row.last_challenged_at ? { last_challenged_at: new Date(row.last_challenged_at).toISOString() } : {}),
  };
}

/** MFA factors and their challenges. */
export interface FactorStore {
  list(userId: string): Promise<FactorRow[]>;
  get(userId: string, factorId: string): Promise<FactorRow | null>;
  create(input: { userId: string; friendlyName: string | null; secretSealed: string }): Promise<FactorRow>;
  remove(userId: string, factorId: string): Promise<void>;
  challenge(factorId: string, sessionId: string, ttlSeconds: number): Promise<ChallengeRow>;
  getChallenge(factorId: string, challengeId: string): Promise<ChallengeRow | null>;
  /** Marks the challenge answered and the factor verified, remembering the time step (no replay of a code). */
  markVerified(factorId: string, challengeId: string, step: number): Promise<boolean>;
}

/** FactorStore over auth_factors and auth_challenges. */
export function createFactorStore(options: { db: Db; clock: Clock }): FactorStore {
  const db = options.db.withTables<AuthTables>();
  return {
    list: (userId) =>
      db.selectFrom('auth_factors').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
    async get(userId, factorId) {
      const row = await db
        .selectFrom('auth_factors')
        .selectAll()
        .where('id', '=', factorId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ?? null;
    },
    async create(input) {
      const at = options.clock.now();
      return db
        .insertInto('auth_factors')
        .values({
          id: randomUUID(),
          user_id: input.userId,
          friendly_name: input.friendlyName,
          factor_type: 'totp',
          status: 'unverified',
          secret_enc: input.secretSealed,
          last_used_step: null,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async remove(userId, factorId) {
      await db.deleteFrom('auth_factors').where('id', '=', factorId).where('user_id', '=', userId).execute();
    },
    async challenge(factorId, sessionId, ttlSeconds) {
      const at = options.clock.now();
      await db.updateTable('auth_factors').set({ last_challenged_at: at }).where('id', '=', factorId).execute();
      return db
        .insertInto('auth_challenges')
        .values({
          id: randomUUID(),
          factor_id: factorId,
          session_id: sessionId,
          created_at: at,
          expires_at: new Date(at.getTime() + ttlSeconds * 1000),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async getChallenge(factorId, challengeId) {
      const row = await db
        .selectFrom('auth_challenges')
        .selectAll()
        .where('id', '=', challengeId)
        .where('factor_id', '=', factorId)
        .executeTakeFirst();
      return row ?? null;
    },
    async markVerified(factorId, challengeId, step) {
      const at = options.clock.now();
      return db
        .transaction()
        .execute(async (tx) => {
          const answered = await tx
            .updateTable('auth_challenges')
            .set({ verified_at: at })
            .where('id', '=', challengeId)
            .where('verified_at', 'is', null)
            .executeTakeFirst();
          if (Number(answered.numUpdatedRows) !== 1) return false;
          const factor = await tx
            .updateTable('auth_factors')
            .set({ status: 'verified', last_used_step: step, updated_at: at })
            .where('id', '=', factorId)
            .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
            .executeTakeFirst();
          if (Number(factor.numUpdatedRows) !== 1) throw new ReplayedCode();
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof ReplayedCode) return false;
          throw error;
        });
    },
  };
}

class ReplayedCode extends Error {}
