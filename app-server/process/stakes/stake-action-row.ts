import { type Kysely, sql } from 'kysely';

/** A provider call a stake event asked for (stake_actions). */
export type StakeActionRow = {
  idempotency_key: string;
  stake_id: string;
  kind: 'hold' | 'release' | 'capture' | 'charge';
  payment_intent_id: string | null;
  attempt: number | null;
  requested_at: Date;
  attempted_at: Date | null;
  tries: number;
};

/** Open actions that are due, oldest first. */
export async function dueActions(db: Kysely<object>, now: Date, limit = 200): Promise<StakeActionRow[]> {
  const { rows } = await sql<StakeActionRow>`
    SELECT idempotency_key, stake_id, kind, payment_intent_id, attempt, requested_at, attempted_at, tries
    FROM stake_actions
    WHERE done_at IS NULL AND NOT needs_review AND next_try_at <= ${now.toISOString()}::timestamptz
    ORDER BY requested_at, idempotency_key LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, requested_at: new Date(r.requested_at), attempted_at: dateOrNull(r.attempted_at) }));
}

/** Notes that the provider is about to be called; committed before the call, so a later run knows it may have run. */
export async function markAttempted(db: Kysely<object>, key: string, now: Date): Promise<void> {
  await sql`
    UPDATE stake_actions SET attempted_at = COALESCE(attempted_at, ${now.toISOString()}::timestamptz)
    WHERE idempotency_key = ${key}`.execute(db);
}

/** Closes an action with what happened (also done by the event handler when the outcome event arrives). */
export async function markDone(db: Kysely<object>, key: string, result: string, now: Date): Promise<void> {
  await sql`
    UPDATE stake_actions SET done_at = ${now.toISOString()}::timestamptz, result = ${result}
    WHERE idempotency_key = ${key} AND done_at IS NULL`.execute(db);
}

/** A retryable failure: try again later, backing off (a minute, doubling, at most an hour) so nothing storms. */
export async function markRetry(db: Kysely<object>, action: StakeActionRow, error: string, now: Date): Promise<void> {
  const delayMs = Math.min(60_000 * 2 ** action.tries, 3_600_000);
  await sql`
    UPDATE stake_actions SET tries = tries + 1, last_error = ${error},
      next_try_at = ${new Date(now.getTime() + delayMs).toISOString()}::timestamptz
    WHERE idempotency_key = ${action.idempotency_key}`.execute(db);
}

/** Stops automatic work on an action whose outcome cannot be known safely; an operator looks at it. */
export async function markNeedsReview(db: Kysely<object>, key: string, why: string): Promise<void> {
  await sql`UPDATE stake_actions SET needs_review = true, last_error = ${why} WHERE idempotency_key = ${key}`.execute(
    db,
  );
}

function dateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
