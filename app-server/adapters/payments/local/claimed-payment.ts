import { sql } from 'kysely';
import { sqlRecords } from '../../../../projections/sql-records.ts';
import { claimKeys, type LocalDb, storedSuccess } from './idempotency.ts';
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
 * on the claim's unique index and then replays it. Calls made side by side share both statements: the gateway groups
 * them (GroupedStatements), so a stake tick's eight lanes send a few statements, not sixteen.
 */

/** What a hold or a charge asks for: its idempotency key, and the customer and card it names. */
export type CardRequest = {
  readonly idempotencyKey: string;
  readonly customerId: string;
  readonly paymentMethodId: string;
};

/**
 * For each request, the card the payment would use when the first read found everything usable; null sends the call
 * the long way. One statement for all of them (the gateway groups calls made side by side: GroupedStatements).
 */
export async function readUsableCards(db: LocalDb, inputs: readonly CardRequest[]): Promise<(ResolvedCard | null)[]> {
  const { rows } = await sql<{
    key_taken: boolean;
    customer_found: boolean;
    owner: string | null;
    brand: string | null;
    behaviour: CardBehaviour | null;
  }>`
    SELECT EXISTS (SELECT 1 FROM payments_local_idempotency k WHERE k.key = i.key) AS key_taken,
           EXISTS (SELECT 1 FROM payments_local_customers c WHERE c.id = i.customer_id) AS customer_found,
           pm.customer_id AS owner, pm.brand, pm.behaviour
    FROM unnest(${inputs.map((i) => i.idempotencyKey)}::text[], ${inputs.map((i) => i.customerId)}::text[],
                ${inputs.map((i) => i.paymentMethodId)}::text[]) WITH ORDINALITY AS i(key, customer_id, method_id, n)
    LEFT JOIN payments_local_payment_methods AS pm ON pm.id = i.method_id
    ORDER BY i.n`.execute(db);
  return inputs.map((input, i) => {
    const found = rows[i];
    if (!found || found.key_taken || !found.customer_found) return null;
    if (found.brand !== null && found.behaviour !== null) {
      return found.owner === input.customerId ? { brand: found.brand, behaviour: found.behaviour } : null;
    }
    // A Stripe test token may be used directly, as at Stripe (resolveCard in local-gateway.ts).
    return input.paymentMethodId.startsWith('pm_card_') ? findTestCard(input.paymentMethodId) : null;
  });
}

/** A claim of an idempotency key with the answer it will replay, and the PaymentIntent and events it writes. */
export type PaymentClaim = {
  readonly key: string;
  readonly requestHash: string;
  readonly now: Date;
  readonly plan: PaymentPlan<unknown>;
};

/**
 * Claims each key with its plan's answer and writes the plan's PaymentIntent and events, all in one statement; for
 * each claim, false (and nothing of it written) when its key was claimed first by another call. One key must come
 * once (a second claim of it in the same statement would find the first's row and write nothing, but its
 * PaymentIntent would be written beside the first's): the gateway sends a repeated key on its own.
 */
export async function claimAndWriteMany(db: LocalDb, claims: readonly PaymentClaim[]): Promise<boolean[]> {
  const input = claims.map(({ key, requestHash, now, plan }, n) => ({
    n,
    key,
    request_hash: requestHash,
    response: JSON.parse(storedSuccess(plan.answer)) as unknown,
    created_at: now.toISOString(),
    pi: plan.row,
    events: plan.events.map((e) => {
      const row = eventRow(e.type, e.row, now);
      return { id: row.id, type: row.type, body: row.body };
    }),
  }));
  const { rows } = await sql<{ key: string }>`
    WITH input AS MATERIALIZED (
      SELECT * FROM ${sqlRecords(input, 'n integer, key text, request_hash text, response jsonb, created_at timestamptz, pi jsonb, events jsonb')} AS r
    ), claim AS (${claimKeys}), intent AS (
      INSERT INTO payments_local_payment_intents (id, customer_id, payment_method_id, amount, amount_capturable,
        amount_received, capture_method, status, client_secret, capture_before, last_error_code, cancellation_reason,
        metadata, created_at, updated_at)
      SELECT p.id, p.customer_id, p.payment_method_id, p.amount, p.amount_capturable, p.amount_received,
        p.capture_method, p.status, p.client_secret, p.capture_before, p.last_error_code, p.cancellation_reason,
        p.metadata, p.created_at, p.updated_at
      FROM input i JOIN claim c ON c.key = i.key
      CROSS JOIN LATERAL jsonb_populate_record(null::payments_local_payment_intents, i.pi) AS p
      ORDER BY i.n
    ), recorded AS (
      INSERT INTO payments_local_events (id, type, payment_intent_id, body, created_at)
      SELECT e.value->>'id', e.value->>'type', i.pi->>'id', e.value->>'body', i.created_at
      FROM input i JOIN claim c ON c.key = i.key
      CROSS JOIN LATERAL jsonb_array_elements(i.events) WITH ORDINALITY AS e(value, m)
      ORDER BY i.n, e.m
    )
    SELECT key FROM claim`.execute(db);
  const claimed = new Set(rows.map((r) => r.key));
  return claims.map((c) => claimed.has(c.key));
}
