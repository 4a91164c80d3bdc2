import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { deterministicUuid } from '../deterministic-uuid.ts';
import { executeInTransaction } from '../execute-command.ts';
import { claimIdempotencyKey } from './claim-key.ts';
import { idBeforeRecordedOutcomes } from './legacy-keyed-ids.ts';
import type { RequestKey } from './request-key.ts';

/*
 * Idempotency-Key, in one place (issue 23, item 3). Start here.
 *
 * A write route that takes the header gets a `KeyedRequest` (http/request.ts `keyedRequest`, the only reader of the
 * header: tests/lint/idempotency-key.test.ts) and runs its command through `once`:
 *
 *   const keyed = await keyedRequest(deps, c, raw);          // 400 bad key, 422 key used for another request
 *   const { goalId, position } = await keyed.once((tx) => createGoal(context, body, timeZone, tx));
 *
 * `once` runs the command's reads and appends in ONE transaction that also writes the command's result (the ids it
 * made, the position its answer waits for) into the key's row of `idempotency_keys` (Stripe's recorded response,
 * Marten's "the outcome commits with the events"). So:
 * - a retry after a lost answer finds the recorded result and answers it; the command does not run again;
 * - twins in parallel queue on the row (`FOR UPDATE`): the first runs and records, the others then read its result;
 * - a crash after the commit and before the answer leaves the result recorded: the retry answers it;
 * - a command that fails (a refusal, a crash before the commit) records nothing: the retry runs it again;
 * - the same key with another route or body is a 422 (claim-key.ts), as Stripe answers.
 * The route builds its answer from that result exactly as on the first call (waiting for the read models at its
 * position), so the first answer and a replay say the same. Commands know nothing of keys: their ids are random.
 *
 * An effect outside our database (a provider call, a push) cannot share the transaction: `effectKey` is a stable name
 * for it, derived from the key, that the effect's own once-only takes (the provider's idempotency, a notification's id).
 *
 * Not key idempotency: a run named by its GPS recording (runs/recording-id.ts) is content-addressed, its stream is the
 * claim, and it holds with or without a key.
 */

type Tx = Transaction<object>;

/** A write request, with or without an Idempotency-Key. */
export interface KeyedRequest {
  /**
   * Runs `work` (every read and append through `tx`) once for this key and answers its result (plain JSON: ids,
   * positions, ISO strings), recorded with the events in one transaction and replayed on a retry. Without a key it
   * simply runs in a transaction. A lost race on a stream runs `work` again from the start (executeInTransaction).
   * `before`: finds what the request made before results were recorded, by the id its key gave it then
   * (legacy-keyed-ids.ts); asked only with a key and when no result is recorded.
   */
  once<T>(work: (tx: Tx) => Promise<T>, before?: (tx: Tx, idBeforeOutcomes: string) => Promise<T | null>): Promise<T>;
  /** A stable name for an effect outside the database (`purpose` tells several apart); null without a key. */
  effectKey(purpose: string): string | null;
}

/** A request without an Idempotency-Key: its work runs in a transaction, every time. */
export function unkeyedRequest(database: Database): KeyedRequest {
  return {
    once: (work) => executeInTransaction(database, work),
    effectKey: () => null,
  };
}

/**
 * Claims `request`'s key (throws IdempotencyKeyReusedError when it was first used for another request) and answers
 * the request whose writes go through `once`. Call it after the body passed its schema: a refused body does not use
 * the key up.
 */
export async function claimKeyedRequest(database: Database, request: RequestKey, now: Date): Promise<KeyedRequest> {
  const claimed = await claimIdempotencyKey(database.db, request, now);
  return {
    async once<T>(work: (tx: Tx) => Promise<T>, before?: (tx: Tx, idBeforeOutcomes: string) => Promise<T | null>) {
      // The usual retry (the first answer was lost) reads its result in the claim and touches nothing else.
      if (claimed !== null) return claimed as T;
      return executeInTransaction(database, async (tx) => {
        const recorded = await lockOutcome(tx, request);
        if (recorded !== null) return recorded as T;
        const result = (before ? await before(tx, idBeforeRecordedOutcomes(request)) : null) ?? (await work(tx));
        return recordOutcome(tx, request, result);
      });
    },
    effectKey: (purpose) => deterministicUuid('idempotency-effect', request.userId, request.key, purpose),
  };
}

/**
 * The key's row, locked until this transaction ends: a twin that got here first holds it until its result commits,
 * and this read then sees that result (READ COMMITTED reads the row's latest version once the lock is granted).
 * PGlite runs one transaction at a time, so there the twin simply comes second.
 */
async function lockOutcome(tx: Tx, request: RequestKey): Promise<unknown> {
  const { rows } = await sql<{ outcome: unknown }>`
    SELECT outcome FROM idempotency_keys WHERE user_id = ${request.userId} AND key = ${request.key}
    FOR UPDATE`.execute(tx);
  // The claim made the row; only the account's deletion (cascade) removes it.
  if (rows.length === 0) throw new Error('idempotency key row vanished: the account was deleted');
  return rows[0]!.outcome ?? null;
}

/** Writes the result in the work's transaction and answers it as a replay will read it (JSON round trip). */
async function recordOutcome<T>(tx: Tx, request: RequestKey, result: T): Promise<T> {
  const json = JSON.stringify(result);
  await sql`
    UPDATE idempotency_keys SET outcome = ${json}::jsonb
    WHERE user_id = ${request.userId} AND key = ${request.key}`.execute(tx);
  return JSON.parse(json) as T;
}
