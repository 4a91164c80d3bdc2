import { sql, type Transaction } from 'kysely';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
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
 * position), so the first answer and a replay say the same. What the first call appended (its event types and
 * positions, `AppendedWrites`) is recorded beside the result and given back on a replay, so the replay waits for the
 * same read models as the first call did, not for every one. Commands know nothing of keys: their ids are random.
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

/** What a request appended: the event types and the position of each append (http/request-writes.ts notes them). */
export interface AppendedWrites {
  readonly eventTypes: readonly string[];
  readonly positions: readonly LogPosition[];
}

/** Where the request keeps what it appended: read when the result is recorded, restored when it is replayed. */
export interface RequestAppends {
  read(): AppendedWrites;
  restore(writes: AppendedWrites): void;
}

/**
 * The key row's `outcome`: the result and what the request appended. An outcome recorded before the appends were
 * kept is the bare result (no `v`): its replay knows nothing of them and waits for every read model.
 */
interface RecordedOutcome {
  readonly v: 2;
  readonly result: unknown;
  readonly appended: AppendedWrites;
}

const isRecordedOutcome = (outcome: unknown): outcome is RecordedOutcome =>
  typeof outcome === 'object' && outcome !== null && (outcome as { v?: unknown }).v === 2 && 'appended' in outcome;

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
export async function claimKeyedRequest(
  database: Database,
  request: RequestKey,
  now: Date,
  appends: RequestAppends,
): Promise<KeyedRequest> {
  const claimed = await claimIdempotencyKey(database.db, request, now);
  /** A recorded outcome's result, its appends given back to the request. */
  const replay = <T>(outcome: unknown): T => {
    if (!isRecordedOutcome(outcome)) return outcome as T;
    appends.restore(outcome.appended);
    return outcome.result as T;
  };
  return {
    async once<T>(work: (tx: Tx) => Promise<T>, before?: (tx: Tx, idBeforeOutcomes: string) => Promise<T | null>) {
      // The usual retry (the first answer was lost) reads its result in the claim and touches nothing else.
      if (claimed !== null) return replay<T>(claimed);
      return executeInTransaction(database, async (tx) => {
        const recorded = await lockOutcome(tx, request);
        if (recorded !== null) return replay<T>(recorded);
        const result = (before ? await before(tx, idBeforeRecordedOutcomes(request)) : null) ?? (await work(tx));
        return recordOutcome(tx, request, result, appends.read());
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

/**
 * Writes the result and what the request appended in the work's transaction, and answers the result as a replay will
 * read it (JSON round trip).
 */
async function recordOutcome<T>(tx: Tx, request: RequestKey, result: T, appended: AppendedWrites): Promise<T> {
  const outcome: RecordedOutcome = { v: 2, result, appended };
  const json = JSON.stringify(outcome);
  await sql`
    UPDATE idempotency_keys SET outcome = ${json}::jsonb
    WHERE user_id = ${request.userId} AND key = ${request.key}`.execute(tx);
  return (JSON.parse(json) as RecordedOutcome).result as T;
}
