import { sql } from 'kysely';
import { sqlRecords } from '../../../../projections/sql-records.ts';
import type { CaptureResult, ReleaseResult } from '../payment-gateway.ts';
import { claimKeys, type LocalDb, storedSuccess } from './idempotency.ts';
import { eventRow, type PaymentIntentRow } from './payment-intent-rows.ts';

/*
 * A capture or a release of a hold in one transaction of two statements instead of seven round trips, for the usual
 * case: a new key, and a hold that is still capturable and has not lapsed. The first statement locks and reads the
 * holds (in id order, so two groups never wait on each other in a circle); the caller decides each move in memory
 * from the row it locked; the second statement claims each key with its final answer and, only where the claim won,
 * moves the PaymentIntent and records its webhook event. The holds stay locked between the two, so what was decided
 * is what is written. A move that is not the usual case (a key seen before, an unknown or lapsed hold, too large an
 * amount) is sent back (null) and goes through runIdempotent, which replays the first answer or stores the refusal
 * exactly as before; so is a claim lost to another call with the same key, which then replays that call's answer.
 * Calls made side by side share the transaction: the gateway groups them (GroupedStatements).
 */

/** A capture or a release asked of the local gateway. */
export type HoldMove =
  | {
      readonly kind: 'capture';
      readonly key: string;
      readonly requestHash: string;
      readonly now: Date;
      readonly paymentIntentId: string;
      readonly amountCents: number;
    }
  | {
      readonly kind: 'release';
      readonly key: string;
      readonly requestHash: string;
      readonly now: Date;
      readonly paymentIntentId: string;
    };

/** What a move answered when it was made here (the usual answers of captureHold and releaseHold). */
export type HoldMoveAnswer =
  | Extract<CaptureResult, { status: 'captured' }>
  | Extract<ReleaseResult, { status: 'released' }>;

/** The PaymentIntent after the move and the webhook event it sends, or null when the move is not the usual case. */
function planMove(move: HoldMove, pi: PaymentIntentRow | undefined) {
  if (pi?.status !== 'requires_capture') return null;
  // A lapsed hold is canceled by the long way first (expireIfLapsed), with its own event.
  if (pi.capture_before !== null && move.now >= pi.capture_before) return null;
  if (move.kind === 'capture') {
    if (move.amountCents > pi.amount_capturable) return null;
    // Capturing part of a hold releases the rest, as at Stripe (local-gateway.ts captureHold).
    const row: PaymentIntentRow = {
      ...pi,
      status: 'succeeded',
      amount_received: move.amountCents,
      amount_capturable: 0,
      updated_at: move.now,
    };
    const answer: HoldMoveAnswer = {
      status: 'captured',
      paymentIntentId: pi.id,
      amountCapturedCents: move.amountCents,
    };
    return { row, event: eventRow('payment_intent.succeeded', row, move.now), answer };
  }
  const row: PaymentIntentRow = {
    ...pi,
    status: 'canceled',
    amount_capturable: 0,
    cancellation_reason: 'requested_by_customer',
    updated_at: move.now,
  };
  const answer: HoldMoveAnswer = { status: 'released', paymentIntentId: pi.id };
  return { row, event: eventRow('payment_intent.canceled', row, move.now), answer };
}

/**
 * Makes each move that is the usual case, all in one transaction; for each move, its answer, or null when it must go
 * the long way (nothing of it written). Keys and PaymentIntents must each come once (the gateway sends a repeated
 * one on its own).
 */
export async function moveHolds(db: LocalDb, moves: readonly HoldMove[]): Promise<(HoldMoveAnswer | null)[]> {
  return db.transaction().execute(async (tx) => {
    const ids = moves.map((m) => m.paymentIntentId);
    const { rows: locked } = await sql<PaymentIntentRow>`
      SELECT * FROM payments_local_payment_intents WHERE id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`.execute(tx);
    const byId = new Map(locked.map((pi) => [pi.id, pi]));
    const plans = moves.map((move) => planMove(move, byId.get(move.paymentIntentId)));
    const input = moves.flatMap((move, n) => {
      const plan = plans[n];
      if (!plan) return [];
      const { row, event } = plan;
      return [
        {
          n,
          key: move.key,
          request_hash: move.requestHash,
          response: JSON.parse(storedSuccess(plan.answer)) as unknown,
          created_at: move.now.toISOString(),
          pi_id: row.id,
          status: row.status,
          amount_capturable: row.amount_capturable,
          amount_received: row.amount_received,
          cancellation_reason: row.cancellation_reason,
          updated_at: row.updated_at.toISOString(),
          event_id: event.id,
          event_type: event.type,
          event_body: event.body,
        },
      ];
    });
    if (input.length === 0) return moves.map(() => null);
    const { rows } = await sql<{ key: string }>`
      WITH input AS MATERIALIZED (
        SELECT * FROM ${sqlRecords(input, 'n integer, key text, request_hash text, response jsonb, created_at timestamptz, pi_id text, status text, amount_capturable integer, amount_received integer, cancellation_reason text, updated_at timestamptz, event_id text, event_type text, event_body text')} AS r
      ), claim AS (${claimKeys}), moved AS (
        UPDATE payments_local_payment_intents AS pi SET status = i.status, amount_capturable = i.amount_capturable,
          amount_received = i.amount_received, cancellation_reason = i.cancellation_reason, updated_at = i.updated_at
        FROM input i JOIN claim c ON c.key = i.key
        WHERE pi.id = i.pi_id
      ), recorded AS (
        INSERT INTO payments_local_events (id, type, payment_intent_id, body, created_at)
        SELECT i.event_id, i.event_type, i.pi_id, i.event_body, i.created_at
        FROM input i JOIN claim c ON c.key = i.key
        ORDER BY i.n
      )
      SELECT key FROM claim`.execute(tx);
    const claimed = new Set(rows.map((r) => r.key));
    return moves.map((move, n) => (claimed.has(move.key) ? plans[n]!.answer : null));
  });
}
