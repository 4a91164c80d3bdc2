import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { PaymentGatewayError } from '../payment-errors.ts';
import type { PaymentIntentSnapshot } from '../payment-gateway.ts';
import type { LocalTx } from './idempotency.ts';
import type { LocalPaymentIntentRow } from './tables.ts';

export type PaymentIntentRow = Selectable<LocalPaymentIntentRow>;

/**
 * A Stripe-looking id (`pi_…`, `cus_…`), random so that two databases never share one: 24 hex digits of a random
 * UUID (Node draws those from a buffered pool: a settlement makes tens of thousands, and randomBytes per id cost more).
 */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(8)}`;
}

/** The PaymentIntent, locked for the rest of the transaction; `not_found` when there is none. */
export async function loadPaymentIntent(tx: LocalTx, id: string): Promise<PaymentIntentRow> {
  const row = await tx
    .selectFrom('payments_local_payment_intents')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row)
    throw new PaymentGatewayError('not_found', `No such PaymentIntent: '${id}'`, { providerCode: 'resource_missing' });
  return row;
}

/**
 * The network lets an uncaptured authorization lapse at `capture_before`: the PaymentIntent becomes canceled
 * (reason `automatic`) and a `payment_intent.canceled` event is sent. Applied lazily whenever the PaymentIntent is
 * touched, and by the gateway's sweep.
 */
export async function expireIfLapsed(tx: LocalTx, row: PaymentIntentRow, now: Date): Promise<PaymentIntentRow> {
  if (row.status !== 'requires_capture' || row.capture_before === null || now < row.capture_before) return row;
  const lapsed: PaymentIntentRow = {
    ...row,
    status: 'canceled',
    amount_capturable: 0,
    cancellation_reason: 'automatic',
    updated_at: row.capture_before,
  };
  await savePaymentIntent(tx, lapsed);
  await recordEvent(tx, 'payment_intent.canceled', lapsed, row.capture_before);
  return lapsed;
}

/** Writes the changeable fields of a PaymentIntent. */
export async function savePaymentIntent(tx: LocalTx, row: PaymentIntentRow): Promise<void> {
  await tx
    .updateTable('payments_local_payment_intents')
    .set({
      status: row.status,
      amount_capturable: row.amount_capturable,
      amount_received: row.amount_received,
      cancellation_reason: row.cancellation_reason,
      last_error_code: row.last_error_code,
      updated_at: row.updated_at,
    })
    .where('id', '=', row.id)
    .execute();
}

/** A webhook event's row, carrying the PaymentIntent as it now stands (Stripe's snapshot events). */
export type LocalEventInsert = { id: string; type: string; payment_intent_id: string; body: string; created_at: Date };

/** The row that records a webhook event about `pi` (its body is what a delivery signs). */
export function eventRow(type: string, pi: PaymentIntentRow, at: Date): LocalEventInsert {
  const id = newId('evt');
  const body = JSON.stringify({
    id,
    object: 'event',
    api_version: 'local',
    created: Math.floor(at.getTime() / 1000),
    livemode: false,
    type,
    data: { object: stripeShape(pi) },
  });
  return { id, type, payment_intent_id: pi.id, body, created_at: at };
}

/** Records a webhook event carrying the PaymentIntent as it now stands (Stripe's snapshot events). */
export async function recordEvent(tx: LocalTx, type: string, pi: PaymentIntentRow, at: Date): Promise<void> {
  await tx
    .insertInto('payments_local_events')
    .values(eventRow(type, pi, at))
    .execute();
}

/** The PaymentIntent in the port's terms. */
export function toSnapshot(row: PaymentIntentRow): PaymentIntentSnapshot {
  return {
    id: row.id,
    status: row.status,
    amountCents: row.amount,
    amountCapturableCents: row.amount_capturable,
    amountCapturedCents: row.amount_received,
    captureBefore: row.capture_before?.toISOString() ?? null,
    customerId: row.customer_id,
    metadata: { ...row.metadata },
  };
}

function stripeShape(row: PaymentIntentRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount,
    amount_capturable: row.amount_capturable,
    amount_received: row.amount_received,
    capture_method: row.capture_method,
    cancellation_reason: row.cancellation_reason,
    currency: 'usd',
    customer: row.customer_id,
    payment_method: row.payment_method_id,
    status: row.status,
    metadata: row.metadata,
    created: Math.floor(row.created_at.getTime() / 1000),
  };
}
