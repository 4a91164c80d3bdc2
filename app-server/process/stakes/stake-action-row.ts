import { sqlRecords } from '../../../projections/sql-records.ts';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { GroupedStatements } from '../../db/grouped-statements.ts';

/** A provider call a stake event asked for (stake_actions). */
export type StakeActionRow = {
  idempotency_key: string;
  stake_id: string;
  kind: 'hold' | 'release' | 'capture' | 'charge' | 'refund';
  payment_intent_id: string | null;
  attempt: number | null;
  requested_at: Date;
  attempted_at: Date | null;
  tries: number;
};

/** Open actions that are due, oldest first. */
export async function dueActions(db: Kysely<object>, now: Date, limit = 200): Promise<StakeActionRow[]> {
  const { rows } = await dueActionsStatement(now, limit).execute(db);
  return rows.map((r) => ({ ...r, requested_at: new Date(r.requested_at), attempted_at: dateOrNull(r.attempted_at) }));
}

/**
 * Notes that the provider is about to be called for these actions; committed before the calls, so a later run knows
 * they may have run. The first mark of a row stays.
 */
export async function markManyAttempted(db: Kysely<object>, keys: readonly string[], now: Date): Promise<void> {
  if (keys.length === 0) return;
  await sql`
    UPDATE stake_actions SET attempted_at = COALESCE(attempted_at, ${now.toISOString()}::timestamptz)
    WHERE idempotency_key = ANY(${[...keys]}::text[])`.execute(db);
}

/**
 * The attempt marks of actions performed side by side, written as a group commit (GroupedStatements): eight lanes
 * write a few statements instead of one each, and a mark asked for alone is written at once. Each caller still waits
 * for its own mark to be committed before it calls the provider; a statement that fails fails every mark it carried.
 */
export class AttemptMarks {
  readonly #marks: GroupedStatements<string, undefined>;

  constructor(db: Kysely<object>, now: Date) {
    this.#marks = new GroupedStatements(async (keys) => {
      await markManyAttempted(db, keys, now);
      return keys.map(() => undefined);
    });
  }

  /** Resolves once the action's mark is committed. */
  async mark(key: string): Promise<void> {
    await this.#marks.ask(key);
  }
}

/**
 * Closes a page of actions in one statement, each as markDone or markNeedsReview would: a result closes a row not
 * closed yet (the event handler may have closed it first, with the outcome event), a review sets it aside.
 */
export async function closeActionRows(
  db: Kysely<object>,
  ends: readonly ({ readonly key: string } & ({ readonly result: string } | { readonly review: string }))[],
  now: Date,
): Promise<void> {
  if (ends.length === 0) return;
  // One end per key (the last): an UPDATE … FROM must not meet a row twice.
  const byKey = new Map(ends.map((e) => [e.key, e]));
  const rows = [...byKey.values()].map((e) =>
    'review' in e ? { key: e.key, result: null, review: e.review } : { key: e.key, result: e.result, review: null },
  );
  await sql`
    UPDATE stake_actions AS a SET
      done_at = CASE WHEN r.review IS NULL THEN COALESCE(a.done_at, ${now.toISOString()}::timestamptz) ELSE a.done_at END,
      result = CASE WHEN r.review IS NULL AND a.done_at IS NULL THEN r.result ELSE a.result END,
      needs_review = a.needs_review OR r.review IS NOT NULL,
      last_error = COALESCE(r.review, a.last_error)
    FROM ${sqlRecords(rows, 'key text, result text, review text')} AS r
    WHERE a.idempotency_key = r.key AND (r.review IS NOT NULL OR a.done_at IS NULL)`.execute(db);
}

/** A retryable failure: try again later, backing off (a minute, doubling, at most an hour) so nothing storms. */
export async function markRetry(db: Kysely<object>, action: StakeActionRow, error: string, now: Date): Promise<void> {
  const delayMs = Math.min(60_000 * 2 ** action.tries, 3_600_000);
  await sql`
    UPDATE stake_actions SET tries = tries + 1, last_error = ${error},
      next_try_at = ${new Date(now.getTime() + delayMs).toISOString()}::timestamptz
    WHERE idempotency_key = ${action.idempotency_key}`.execute(db);
}

/** The page's query: an ordered walk of stake_actions_open_in_order that stops after `limit` rows due. */
export function dueActionsStatement(now: Date, limit: number): RawBuilder<StakeActionRow> {
  return sql<StakeActionRow>`
    SELECT idempotency_key, stake_id, kind, payment_intent_id, attempt, requested_at, attempted_at, tries
    FROM stake_actions
    WHERE done_at IS NULL AND NOT needs_review AND next_try_at <= ${now.toISOString()}::timestamptz
    ORDER BY requested_at, idempotency_key LIMIT ${limit}`;
}

function dateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
