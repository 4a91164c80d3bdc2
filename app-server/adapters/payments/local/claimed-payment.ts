import { sql } from 'kysely';
import { type LocalDb, storedSuccess } from './idempotency.ts';
import { eventRow } from './payment-intent-rows.ts';
import type { PaymentPlan, ResolvedCard } from './payment-plan.ts';
import type { CardBehaviour } from './tables.ts';
import { findTestCard } from './test-cards.ts';

/*
 * A hold or a charge in two statements instead of nine, for the usual case: a new key, a known customer and a usable
 * card. The first statement reads whether the key is already known, the customer and the card. The second claims the
 * key with the final answer and, only if the claim won, writes the PaymentIntent and its webhook events: one
 * statement, so all of it or none of it is stored. Anything else (a key seen before, an unknown customer or card, a
 * claim lost to a concurrent call with the same key) goes through runIdempotent as before, which replays the first
 * answer or stores the refusal. The key's row is never seen without its answer, so a concurrent second call waits
 * on the claim's unique index and then replays it.
 */

/** The card the payment would use, when the first read found everything usable; null sends the call the long way. */
export async function readUsableCard(
  db: LocalDb,
  input: { readonly idempotencyKey: string; readonly customerId: string; readonly paymentMethodId: string },
): Promise<ResolvedCard | null> {
  const { rows } = await sql<{
    key_taken: boolean;
    customer_found: boolean;
    owner: string | null;
    brand: string | null;
    behaviour: CardBehaviour | null;
  }>`
    SELECT EXISTS (SELECT 1 FROM payments_local_idempotency WHERE key = ${input.idempotencyKey}) AS key_taken,
           EXISTS (SELECT 1 FROM payments_local_customers WHERE id = ${input.customerId}) AS customer_found,
           pm.customer_id AS owner, pm.brand, pm.behaviour
    FROM (SELECT 1) AS one
    LEFT JOIN payments_local_payment_methods AS pm ON pm.id = ${input.paymentMethodId}`.execute(db);
  const found = rows[0];
  if (!found || found.key_taken || !found.customer_found) return null;
  if (found.brand !== null && found.behaviour !== null) {
    return found.owner === input.customerId ? { brand: found.brand, behaviour: found.behaviour } : null;
  }
  // A Stripe test token may be used directly, as at Stripe (resolveCard in local-gateway.ts).
  return input.paymentMethodId.startsWith('pm_card_') ? findTestCard(input.paymentMethodId) : null;
}

/**
 * Claims `key` with the plan's answer and writes the plan's PaymentIntent and events, in one statement; false (and
 * nothing written) when the key was claimed first by another call.
 */
export async function claimAndWrite(
  db: LocalDb,
  claim: { readonly key: string; readonly requestHash: string; readonly now: Date },
  plan: PaymentPlan<unknown>,
): Promise<boolean> {
  const pi = plan.row;
  const events = plan.events.map((e) => eventRow(e.type, e.row, claim.now));
  const { rows } = await sql<{ claimed: number }>`
    WITH claim AS (
      INSERT INTO payments_local_idempotency (key, request_hash, response, created_at)
      VALUES (${claim.key}, ${claim.requestHash}, ${storedSuccess(plan.answer)}::jsonb, ${claim.now}::timestamptz)
      ON CONFLICT (key) DO NOTHING
      RETURNING key
    ), intent AS (
      INSERT INTO payments_local_payment_intents (id, customer_id, payment_method_id, amount, amount_capturable,
        amount_received, capture_method, status, client_secret, capture_before, last_error_code, cancellation_reason,
        metadata, created_at, updated_at)
      SELECT ${pi.id}::text, ${pi.customer_id}::text, ${pi.payment_method_id}::text, ${pi.amount}::integer,
        ${pi.amount_capturable}::integer, ${pi.amount_received}::integer, ${pi.capture_method}::text,
        ${pi.status}::text, ${pi.client_secret}::text, ${pi.capture_before}::timestamptz,
        ${pi.last_error_code}::text, ${pi.cancellation_reason}::text, ${JSON.stringify(pi.metadata)}::jsonb,
        ${pi.created_at}::timestamptz, ${pi.updated_at}::timestamptz
      WHERE EXISTS (SELECT 1 FROM claim)
    ), recorded AS (
      INSERT INTO payments_local_events (id, type, payment_intent_id, body, created_at)
      SELECT e.id, e.type, ${pi.id}::text, e.body, ${claim.now}::timestamptz
      FROM unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.type)}::text[],
                  ${events.map((e) => e.body)}::text[]) WITH ORDINALITY AS e(id, type, body, n)
      WHERE EXISTS (SELECT 1 FROM claim)
      ORDER BY e.n
    )
    SELECT count(*)::int AS claimed FROM claim`.execute(db);
  return (rows[0]?.claimed ?? 0) > 0;
}
