import { sqlRecords } from '../../../projections/sql-records.ts';
import { sql, type Transaction } from 'kysely';

/** A provider call a stake event asks for, to queue as a row of stake_actions. */
export type NewAction = {
  readonly key: string;
  readonly stakeId: string;
  readonly kind: 'hold' | 'release' | 'capture' | 'charge' | 'refund';
  readonly paymentIntentId?: string;
  readonly attempt?: number;
};

export type Write =
  | { readonly insert: NewAction }
  | { readonly close: { readonly stakeId: string; readonly key: string; readonly result: string } }
  | { readonly closeKind: { readonly stakeId: string; readonly kind: string; readonly result: string } };

const stakeOf = (w: Write) => ('insert' in w ? w.insert.stakeId : 'close' in w ? w.close.stakeId : w.closeKind.stakeId);

/**
 * The stake_actions writes of one batch of stake events, in log order per stake, sent as a few statements instead of
 * one per event: all the batch's inserts of a round as one INSERT, its closes as one UPDATE. Every write touches only
 * its own stake's rows (keys are the stake's own), so the writes of different stakes commute and only each stake's
 * order must hold. A stake's writes are put in rounds that alternate inserts and closes: a write goes in its stake's
 * current round while the kind stays the same, in the next one when it changes. Within a round the writes keep the
 * batch's order, so the first close of a row wins, as it does one statement at a time (a closed row is closed no
 * more); a close never moves before an insert of its stake it followed. A Monday's batch (captures asked for some
 * stakes, collections recorded for others) is then two or three statements instead of one per switch between them.
 */
export class ActionRowWrites {
  readonly #writes: Write[] = [];

  /** Queues a provider call; a row with the key already there stays as it is. */
  insert(action: NewAction): void {
    this.#writes.push({ insert: action });
  }

  /** Closes the stake's open action with this key. */
  close(stakeId: string, key: string, result: string): void {
    this.#writes.push({ close: { stakeId, key, result } });
  }

  /** Closes the stake's open actions of these kinds. */
  closeKinds(stakeId: string, kinds: readonly string[], result: string): void {
    for (const kind of kinds) this.#writes.push({ closeKind: { stakeId, kind, result } });
  }

  /** Sends the writes, round by round, in the batch's transaction. */
  async flush(tx: Transaction<object>, now: Date): Promise<void> {
    for (const round of inRounds(this.#writes)) {
      if ('insert' in round[0]!) await insertRun(tx, round, now);
      else await closeRun(tx, round, now);
    }
    this.#writes.length = 0;
  }
}

/**
 * The writes in rounds, each all inserts or all closes, in batch order within a round. Round numbers alternate kinds
 * (even: inserts, odd: closes); a stake's first write goes in the first round of its kind, each later one in the
 * same round as its predecessor when the kind is the same, else in the next round.
 */
export function inRounds(writes: readonly Write[]): Write[][] {
  const roundOfStake = new Map<string, number>();
  const rounds: Write[][] = [];
  for (const w of writes) {
    const parity = 'insert' in w ? 0 : 1;
    const last = roundOfStake.get(stakeOf(w));
    const round = last === undefined ? parity : last % 2 === parity ? last : last + 1;
    roundOfStake.set(stakeOf(w), round);
    while (rounds.length <= round) rounds.push([]);
    rounds[round]!.push(w);
  }
  return rounds.filter((r) => r.length > 0);
}

async function insertRun(tx: Transaction<object>, run: readonly Write[], now: Date): Promise<void> {
  const rows = run.flatMap((w, ord) =>
    'insert' in w
      ? [
          {
            ord,
            key: w.insert.key,
            stake_id: w.insert.stakeId,
            kind: w.insert.kind,
            payment_intent_id: w.insert.paymentIntentId ?? null,
            attempt: w.insert.attempt ?? null,
          },
        ]
      : [],
  );
  const at = now.toISOString();
  // In list order, so of two rows with one key the first is inserted and the second does nothing, as one by one.
  await sql`
    INSERT INTO stake_actions (idempotency_key, stake_id, kind, payment_intent_id, attempt, requested_at, next_try_at)
    SELECT r.key, r.stake_id, r.kind, r.payment_intent_id, r.attempt, ${at}::timestamptz, ${at}::timestamptz
    FROM ${sqlRecords(rows, 'ord integer, key text, stake_id text, kind text, payment_intent_id text, attempt integer')} AS r
    ORDER BY r.ord
    ON CONFLICT (idempotency_key) DO NOTHING`.execute(tx);
}

async function closeRun(tx: Transaction<object>, run: readonly Write[], now: Date): Promise<void> {
  const rows = run.map((w, ord) => {
    if ('close' in w) return { ord, key: w.close.key, stake_id: null, kind: null, result: w.close.result };
    if ('closeKind' in w) {
      const { stakeId, kind, result } = w.closeKind;
      return { ord, key: null, stake_id: stakeId, kind, result };
    }
    throw new Error('an insert in a run of closes');
  });
  // Each asked close finds its rows on an index (by key; by stake and kind), each LATERAL behind OFFSET 0 so
  // PostgreSQL runs it per asked row instead of hashing the whole table; a row several closes find takes the first.
  // Whether a row is still open is checked after the probe, outside it: asked inside, `done_at IS NULL` let the
  // planner probe the partial index of open rows instead (its statistics, from before a settlement Monday queued
  // thousands, say it holds none), filtering every open row for every asked close: 55 ms for 500 closes among 1,500
  // open actions, 1.6 ms on the key's index.
  await sql`
    WITH r AS (
      SELECT * FROM ${sqlRecords(rows, 'ord integer, key text, stake_id text, kind text, result text')} AS r
    ),
    hits AS (
      SELECT r.ord, s.idempotency_key, r.result FROM r CROSS JOIN LATERAL (
        SELECT idempotency_key, done_at FROM stake_actions WHERE r.key IS NOT NULL AND idempotency_key = r.key OFFSET 0
      ) s
      WHERE s.done_at IS NULL
      UNION ALL
      SELECT r.ord, s.idempotency_key, r.result FROM r CROSS JOIN LATERAL (
        SELECT idempotency_key, done_at FROM stake_actions
        WHERE r.key IS NULL AND stake_id = r.stake_id AND kind = r.kind OFFSET 0
      ) s
      WHERE s.done_at IS NULL
    ),
    firsts AS (SELECT DISTINCT ON (idempotency_key) idempotency_key, result FROM hits ORDER BY idempotency_key, ord)
    UPDATE stake_actions AS a SET done_at = ${now.toISOString()}::timestamptz, result = f.result
    FROM firsts f WHERE a.idempotency_key = f.idempotency_key`.execute(tx);
}
