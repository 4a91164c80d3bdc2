import { holdWindowMs } from '../hold-windows.ts';
import type { ChargeResult, HoldResult } from '../payment-gateway.ts';
import { newId, type PaymentIntentRow } from './payment-intent-rows.ts';
import type { CardBehaviour } from './tables.ts';
import { declineOf } from './test-cards.ts';

/** What a hold or a charge is asked to pay. */
export type PaymentInput = {
  readonly customerId: string;
  readonly paymentMethodId: string;
  readonly amountCents: number;
  readonly metadata: Readonly<Record<string, string>>;
};

/** The card as the gateway resolved it (a saved card of this customer, or a Stripe test token). */
export type ResolvedCard = { readonly brand: string; readonly behaviour: CardBehaviour };

/**
 * A new PaymentIntent worked out before anything is written: the row as it ends, the webhook events it sends (each
 * carrying the PaymentIntent as it stood then), and the caller's answer. Both ways of writing it (one statement with
 * the idempotency key's claim, or inside runIdempotent's transaction) store exactly this.
 */
export type PaymentPlan<Answer> = {
  readonly row: PaymentIntentRow;
  readonly events: readonly { readonly type: string; readonly row: PaymentIntentRow }[];
  readonly answer: Answer;
};

/**
 * Creates and confirms a PaymentIntent the way the card behaves, as at Stripe, where a declined PaymentIntent exists
 * (requires_payment_method) and can be retrieved. A manual-capture hold gets its deadline from the card's network.
 */
function plan(
  input: PaymentInput,
  card: ResolvedCard,
  captureMethod: 'manual' | 'automatic',
  customerPresent: boolean,
  now: Date,
): { created: PaymentIntentRow; events: { type: string; row: PaymentIntentRow }[]; final: PaymentIntentRow } {
  const id = newId('pi');
  const succeeds = card.behaviour === 'succeeds';
  const created: PaymentIntentRow = {
    id,
    customer_id: input.customerId,
    payment_method_id: input.paymentMethodId,
    amount: input.amountCents,
    amount_capturable: succeeds && captureMethod === 'manual' ? input.amountCents : 0,
    amount_received: succeeds && captureMethod === 'automatic' ? input.amountCents : 0,
    capture_method: captureMethod,
    status: succeeds ? (captureMethod === 'manual' ? 'requires_capture' : 'succeeded') : 'requires_payment_method',
    client_secret: `${id}_secret_${newId('s').slice(2)}`,
    capture_before:
      succeeds && captureMethod === 'manual'
        ? new Date(now.getTime() + holdWindowMs(card.brand, customerPresent))
        : null,
    last_error_code: null,
    cancellation_reason: null,
    metadata: { ...input.metadata },
    created_at: now,
    updated_at: now,
  };
  const events = [{ type: 'payment_intent.created', row: created }];
  if (succeeds) {
    const type = captureMethod === 'manual' ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded';
    events.push({ type, row: created });
    return { created, events, final: created };
  }
  // On-session 3-D Secure leaves the PaymentIntent waiting for the runner (requires_action); off-session it fails
  // outright, as Stripe does with `authentication_required`.
  if (card.behaviour === 'authentication_required' && customerPresent) {
    const waiting: PaymentIntentRow = { ...created, status: 'requires_action', updated_at: now };
    events.push({ type: 'payment_intent.requires_action', row: waiting });
    return { created, events, final: waiting };
  }
  const failed: PaymentIntentRow = {
    ...created,
    last_error_code: declineOf(card.behaviour as Exclude<CardBehaviour, 'succeeds'>).declineCode,
    updated_at: now,
  };
  events.push({ type: 'payment_intent.payment_failed', row: failed });
  return { created, events, final: failed };
}

/** The refusal a card that did not pay gives (declined, or authentication required). */
function refusal(
  row: PaymentIntentRow,
  behaviour: Exclude<CardBehaviour, 'succeeds'>,
): Extract<HoldResult, { status: 'declined' | 'authentication_required' }> {
  if (behaviour === 'authentication_required') {
    return { status: 'authentication_required', paymentIntentId: row.id, clientSecret: row.client_secret };
  }
  const decline = declineOf(behaviour);
  return { status: 'declined', paymentIntentId: row.id, declineCode: decline.declineCode, message: decline.message };
}

/** A manual-capture hold on the card (placeHold). */
export function planHold(
  input: PaymentInput,
  card: ResolvedCard,
  customerPresent: boolean,
  now: Date,
): PaymentPlan<HoldResult> {
  const { events, final } = plan(input, card, 'manual', customerPresent, now);
  if (card.behaviour !== 'succeeds') return { row: final, events, answer: refusal(final, card.behaviour) };
  if (final.capture_before === null) throw new Error('a hold without a deadline');
  const answer: HoldResult = {
    status: 'held',
    paymentIntentId: final.id,
    amountCents: final.amount,
    captureBefore: final.capture_before.toISOString(),
  };
  return { row: final, events, answer };
}

/** An immediate, automatically captured off-session payment (chargeOffSession). */
export function planCharge(input: PaymentInput, card: ResolvedCard, now: Date): PaymentPlan<ChargeResult> {
  const { events, final } = plan(input, card, 'automatic', false, now);
  if (card.behaviour !== 'succeeds') return { row: final, events, answer: refusal(final, card.behaviour) };
  return {
    row: final,
    events,
    answer: { status: 'succeeded', paymentIntentId: final.id, amountCents: final.amount_received },
  };
}
