import { createHash } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { stableJson } from '../../../../domain/shared/stable-json.ts';
import { type PaymentErrorCode, PaymentGatewayError } from '../payment-errors.ts';
import type { LocalPaymentTables } from './tables.ts';

/** The local gateway's database handle. */
export type LocalDb = Kysely<LocalPaymentTables>;
export type LocalTx = Transaction<LocalPaymentTables>;

/** A first answer as kept for its key; `providerCode` is Stripe's own code (`charge_already_refunded`…), when any. */
type Stored =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: PaymentErrorCode; message: string; providerCode?: string | null } };

/** The hash a key's first request is kept under (the same request gives the same hash, whatever its keys' order). */
export function hashRequest(request: { operation: string } & Record<string, unknown>): string {
  return createHash('sha256').update(stableJson(request)).digest('hex');
}

/** A successful first answer as runIdempotent stores it for its key (see claimed-payment.ts). */
export function storedSuccess(value: unknown): string {
  const stored: Stored = { ok: true, value };
  return JSON.stringify(stored);
}

/**
 * The keys claimed with their final answers, for a statement that writes a group of calls at once (claimed-payment.ts,
 * moved-payment.ts): from its `input` (n, key, request_hash, response, created_at), in order; a key taken already is
 * not claimed (its call goes through runIdempotent, which replays the first answer). Returns the keys claimed.
 */
export const claimKeys = sql`
  INSERT INTO payments_local_idempotency (key, request_hash, response, created_at)
  SELECT key, request_hash, response, created_at FROM input ORDER BY n
  ON CONFLICT (key) DO NOTHING
  RETURNING key`;

/** Stripe forgets keys after 24 hours; so does the local gateway, so callers must cope with it in tests too. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 3_600_000;

/**
 * Runs `run` once per key, in one transaction with its writes, like Stripe's idempotent requests:
 * - the same key and the same request replay the first answer, even a failure;
 * - the same key with another request (operation or parameters) fails with `idempotency_mismatch`;
 * - a key older than 24 hours is forgotten and runs afresh.
 * `run` must throw a PaymentGatewayError before it writes anything (it is stored as the answer and committed).
 * Concurrent first calls with one key are serialised by the key's primary-key row: the second waits, then replays.
 */
export async function runIdempotent<T>(
  db: LocalDb,
  key: string,
  request: { operation: string } & Record<string, unknown>,
  now: Date,
  run: (tx: LocalTx) => Promise<T>,
): Promise<T> {
  const requestHash = hashRequest(request);
  const stored = await db.transaction().execute(async (tx): Promise<Stored> => {
    const claimed = await tx
      .insertInto('payments_local_idempotency')
      .values({ key, request_hash: requestHash, response: null, created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const row = await tx
        .selectFrom('payments_local_idempotency')
        .selectAll()
        .where('key', '=', key)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (now.getTime() - row.created_at.getTime() < IDEMPOTENCY_KEY_LIFETIME_MS) {
        if (row.request_hash !== requestHash) {
          return {
            ok: false,
            error: {
              code: 'idempotency_mismatch',
              message: `Idempotency key ${key} was first used with other parameters.`,
            },
          };
        }
        if (row.response !== null) return row.response as Stored;
      }
      await tx
        .updateTable('payments_local_idempotency')
        .set({ request_hash: requestHash, response: null, created_at: now })
        .where('key', '=', key)
        .execute();
    }
    let answer: Stored;
    try {
      answer = { ok: true, value: await run(tx) };
    } catch (error) {
      if (!(error instanceof PaymentGatewayError)) throw error;
      answer = { ok: false, error: { code: error.code, message: error.message, providerCode: error.providerCode } };
    }
    await tx
      .updateTable('payments_local_idempotency')
      .set({ response: JSON.stringify(answer) })
      .where('key', '=', key)
      .execute();
    return answer;
  });
  if (stored.ok) return stored.value as T;
  throw new PaymentGatewayError(stored.error.code, stored.error.message, {
    providerCode: stored.error.providerCode ?? null,
  });
}
