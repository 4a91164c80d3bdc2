import { type Kysely, sql } from 'kysely';
import type { RequestKey } from './request-key.ts';

/** Stripe's rule, in our words: a key is for one request. */
export const KEY_REUSED =
  'This Idempotency-Key was already used for a different request. Use a new key for a new request.';

/** The key was first used by another route or another body. */
export class IdempotencyKeyReusedError extends Error {
  constructor() {
    super(KEY_REUSED);
    this.name = 'IdempotencyKeyReusedError';
  }
}

/**
 * Records that `request` uses its key, or checks that the request that used it first was this same one; throws
 * IdempotencyKeyReusedError otherwise. Concurrent first uses insert once (the primary key), the others compare.
 * Answers the outcome the key's write recorded (keyed-request.ts), or null while none is.
 *
 * One statement for a new key (the insert answers its own row) and for a key seen before (the same statement reads
 * it). The one case it cannot answer: a twin inserted the row after this statement's snapshot was taken, so the insert
 * waited for it and did nothing, and the read saw no row yet. A second statement, with a fresh snapshot, reads it.
 */
export async function claimIdempotencyKey(db: Kysely<object>, request: RequestKey, now: Date): Promise<unknown> {
  const { rows } = await sql<KeyRow>`
    WITH inserted AS (
      INSERT INTO idempotency_keys (user_id, key, route, fingerprint, created_at)
      VALUES (${request.userId}, ${request.key}, ${request.route}, ${request.fingerprint}, ${now})
      ON CONFLICT (user_id, key) DO NOTHING
      RETURNING route, fingerprint, outcome
    )
    SELECT route, fingerprint, outcome FROM inserted
    UNION ALL
    SELECT route, fingerprint, outcome FROM idempotency_keys WHERE user_id = ${request.userId} AND key = ${request.key}`.execute(
    db,
  );
  const first =
    rows[0] ??
    (
      await sql<KeyRow>`
        SELECT route, fingerprint, outcome FROM idempotency_keys
        WHERE user_id = ${request.userId} AND key = ${request.key}`.execute(db)
    ).rows[0];
  if (!first || first.route !== request.route || first.fingerprint !== request.fingerprint) {
    throw new IdempotencyKeyReusedError();
  }
  return first.outcome ?? null;
}

interface KeyRow {
  route: string;
  fingerprint: string;
  outcome: unknown;
}
