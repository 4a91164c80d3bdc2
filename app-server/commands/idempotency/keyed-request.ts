import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { deterministicUuid } from '../deterministic-uuid.ts';
import { executeInTransaction } from '../execute-command.ts';
import { type AppendedWrites, type Committed, GroupCommit, type GroupWork, type Settled } from '../group-commit.ts';
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
 * A command that many requests send at once (POST /runs) goes through `inGroup` instead, to a `KeyedGroup`: the
 * requests that arrive together share one transaction (group commit, ../group-commit.ts), and this file does for
 * all of them at once what `once` does for one: their keys' rows locked in one statement, their outcomes recorded in
 * one, each replayed or run as `once` would.
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
   */
  once<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * `once`, for a command sent through a group commit: `input` goes to `group`'s command with the requests that
   * arrive with it, in one transaction, and this request gets its own result (or its own refusal).
   */
  inGroup<I, T>(group: KeyedGroup<I, T>, input: I): Promise<T>;
  /** A stable name for an effect outside the database (`purpose` tells several apart); null without a key. */
  effectKey(purpose: string): string | null;
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

/** A recorded outcome as its replay answers it: the result, and what the first call appended (null: not known). */
function replayed<T>(outcome: unknown): Committed<T> {
  return isRecordedOutcome(outcome)
    ? { result: outcome.result as T, appended: outcome.appended }
    : { result: outcome as T, appended: null };
}

/** A committed result handed to its request: its appends noted there, for the read-your-writes wait. */
function answered<T>(committed: Committed<T>, appends: RequestAppends): T {
  if (committed.appended) appends.restore(committed.appended);
  return committed.result;
}

/** A request without an Idempotency-Key: its work runs in a transaction, every time. */
export function unkeyedRequest(database: Database, appends: RequestAppends): KeyedRequest {
  return {
    once: (work) => executeInTransaction(database, work),
    inGroup: (group, input) => group.submit({ input, key: null, appends }),
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
  return {
    async once<T>(work: (tx: Tx) => Promise<T>) {
      // The usual retry (the first answer was lost) reads its result in the claim and touches nothing else.
      if (claimed !== null) return answered(replayed<T>(claimed), appends);
      return executeInTransaction(database, async (tx) => {
        const [recorded] = await lockOutcomes(tx, [request]);
        if (recorded !== null) return answered(replayed<T>(recorded), appends);
        const result = await work(tx);
        const [committed] = await recordOutcomes(tx, [{ request, result, appended: appends.read() }]);
        return committed!.result;
      });
    },
    inGroup: async (group, input) =>
      claimed !== null ? answered(replayed(claimed), appends) : group.submit({ input, key: request, appends }),
    effectKey: (purpose) => deterministicUuid('idempotency-effect', request.userId, request.key, purpose),
  };
}

/** A request handed to a KeyedGroup: its command's input, its key (null: none), and where its appends are noted. */
interface GroupMember<I> {
  readonly input: I;
  readonly key: RequestKey | null;
  readonly appends: RequestAppends;
}

/**
 * A group commit of keyed requests (../group-commit.ts): `work` runs the command of every request that arrives while
 * a group is on its way, in one transaction, each key's outcome locked and recorded as `once` does. Make one per
 * command and app (its queue is the app's), and send requests to it with `KeyedRequest.inGroup`.
 */
export class KeyedGroup<I, T> {
  readonly #commits: GroupCommit<GroupMember<I>, T>;

  constructor(database: Database, work: GroupWork<I, T>, maxGroup: number) {
    const commit = (members: readonly GroupMember<I>[], maxAttempts: number) =>
      executeInTransaction(database, (tx) => onceTogether(tx, members, work), maxAttempts);
    this.#commits = new GroupCommit({
      // One attempt: a group that fails is sent again member by member, each with the usual retries.
      together: async (members) => {
        const settled = await commit(members, 1);
        return settled.map((s, i) => (s.ok ? { ok: true, value: answered(s.value, members[i]!.appends) } : s));
      },
      alone: async (member) => {
        const [settled] = await commit([member], 3);
        if (!settled!.ok) throw settled!.error;
        return answered(settled!.value, member.appends);
      },
      maxGroup,
    });
  }

  /** Runs a member's command with whatever else arrives meanwhile (KeyedRequest.inGroup). */
  submit(member: GroupMember<I>): Promise<T> {
    return this.#commits.submit(member);
  }
}

/**
 * `once` for several members in `tx`: the keys' rows locked in one statement (a key with an outcome is replayed),
 * `work` run for the rest, the outcomes of those that succeeded recorded in one statement. Two members with one key
 * (twins that arrived together) cannot both run: the group is refused, and its members go one by one, where the
 * second waits on the first's row.
 */
async function onceTogether<I, T>(
  tx: Tx,
  members: readonly GroupMember<I>[],
  work: GroupWork<I, T>,
): Promise<Settled<Committed<T>>[]> {
  const keys = members.flatMap((m) => (m.key ? [m.key] : []));
  if (new Set(keys.map(keyName)).size < keys.length) throw new Error('Idempotency-Key twins in one group');
  const locked = await lockOutcomes(tx, keys);
  const outcomeOf = new Map(keys.map((key, i) => [keyName(key), locked[i] ?? null]));
  const settled: Settled<Committed<T>>[] = [];
  const todo: number[] = [];
  for (const [i, member] of members.entries()) {
    const outcome = member.key ? outcomeOf.get(keyName(member.key)) : null;
    if (outcome !== null && outcome !== undefined) settled[i] = { ok: true, value: replayed<T>(outcome) };
    else todo.push(i);
  }
  const done =
    todo.length === 0
      ? []
      : await work(
          tx,
          todo.map((i) => ({
            input: members[i]!.input,
            idBeforeOutcomes: members[i]!.key ? idBeforeRecordedOutcomes(members[i]!.key!) : null,
          })),
        );
  for (const [j, i] of todo.entries()) settled[i] = done[j]!;
  const recording = todo.flatMap((i) => {
    const key = members[i]!.key;
    const outcome = settled[i]!;
    return key && outcome.ok
      ? [{ i, request: key, result: outcome.value.result, appended: outcome.value.appended }]
      : [];
  });
  const committed = await recordOutcomes(tx, recording);
  for (const [j, { i }] of recording.entries()) settled[i] = { ok: true, value: committed[j]! };
  return settled;
}

const keyName = (request: RequestKey) => `${request.userId}\u0000${request.key}`;

/**
 * The keys' rows, locked until this transaction ends, in key order (two groups never wait for each other in a
 * cycle), and each key's recorded outcome or null, in the order asked. A twin that got here first holds its row until
 * its result commits, and this read then sees that result (READ COMMITTED reads the row's latest version once the lock
 * is granted). PGlite runs one transaction at a time, so there the twin simply comes second.
 */
async function lockOutcomes(tx: Tx, requests: readonly RequestKey[]): Promise<unknown[]> {
  if (requests.length === 0) return [];
  const { rows } = await sql<{ user_id: string; key: string; outcome: unknown }>`
    SELECT k.user_id, k.key, k.outcome FROM idempotency_keys AS k
    JOIN unnest(${requests.map((r) => r.userId)}::text[], ${requests.map((r) => r.key)}::text[]) AS r(user_id, key)
      ON k.user_id = r.user_id AND k.key = r.key
    ORDER BY k.user_id, k.key
    FOR UPDATE OF k`.execute(tx);
  const byKey = new Map(rows.map((row) => [`${row.user_id}\u0000${row.key}`, row.outcome ?? null]));
  return requests.map((request) => {
    // The claim made the row; only the account's deletion (cascade) removes it.
    if (!byKey.has(keyName(request))) throw new Error('idempotency key row vanished: the account was deleted');
    return byKey.get(keyName(request));
  });
}

/**
 * Writes each result and what its request appended into its key's row, in the work's transaction and one statement,
 * and answers each as a replay will read it (JSON round trip).
 */
async function recordOutcomes<T>(
  tx: Tx,
  outcomes: readonly { request: RequestKey; result: T; appended: AppendedWrites | null }[],
): Promise<Committed<T>[]> {
  if (outcomes.length === 0) return [];
  const appendedOf = (o: (typeof outcomes)[number]) => o.appended ?? { eventTypes: [], positions: [] };
  const json = outcomes.map((o) =>
    JSON.stringify({ v: 2, result: o.result, appended: appendedOf(o) } satisfies RecordedOutcome),
  );
  await sql`
    UPDATE idempotency_keys AS k SET outcome = r.outcome::jsonb
    FROM unnest(
      ${outcomes.map((o) => o.request.userId)}::text[], ${outcomes.map((o) => o.request.key)}::text[], ${json}::text[]
    ) AS r(user_id, key, outcome)
    WHERE k.user_id = r.user_id AND k.key = r.key`.execute(tx);
  return json.map((text) => replayed<T>(JSON.parse(text)));
}
