import type Stripe from 'stripe';
import { holdWindowMs } from '../hold-windows.ts';
import { PaymentGatewayError } from '../payment-errors.ts';
import type { ChargeResult, HoldResult, PaymentIntentSnapshot, PaymentIntentStatus } from '../payment-gateway.ts';
import type { StripeErrorLike } from './stripe-errors.ts';

/**
 * The hold's deadline: `latest_charge.payment_method_details.card.capture_before` (the PaymentIntent must be fetched
 * with `expand: ['latest_charge']`). A charge that does not report one gets the shortest window its card may have,
 * so the settlement never counts on a hold that may already be gone.
 */
export function captureBeforeOf(pi: Stripe.PaymentIntent, customerPresent = false): string | null {
  const charge = pi.latest_charge;
  if (charge === null || typeof charge === 'string') return null;
  const card = charge.payment_method_details?.card;
  if (card?.capture_before) return new Date(card.capture_before * 1000).toISOString();
  return new Date(charge.created * 1000 + holdWindowMs(card?.brand ?? 'visa', customerPresent)).toISOString();
}

/** The PaymentIntent in the port's terms. */
export function toSnapshot(pi: Stripe.PaymentIntent): PaymentIntentSnapshot {
  const customer = pi.customer;
  return {
    id: pi.id,
    status: pi.status as PaymentIntentStatus,
    amountCents: pi.amount,
    amountCapturableCents: pi.amount_capturable,
    amountCapturedCents: pi.amount_received,
    captureBefore: pi.capture_method === 'automatic' ? null : captureBeforeOf(pi),
    customerId: customer === null ? null : typeof customer === 'string' ? customer : customer.id,
    metadata: { ...pi.metadata },
  };
}

/** The answer to a confirmed manual-capture PaymentIntent. */
export function holdResultOf(pi: Stripe.PaymentIntent, customerPresent: boolean): HoldResult {
  switch (pi.status) {
    case 'requires_capture': {
      const captureBefore =
        captureBeforeOf(pi, customerPresent) ??
        new Date(pi.created * 1000 + holdWindowMs('visa', customerPresent)).toISOString();
      return { status: 'held', paymentIntentId: pi.id, amountCents: pi.amount_capturable, captureBefore };
    }
    case 'requires_action':
      return { status: 'authentication_required', paymentIntentId: pi.id, clientSecret: pi.client_secret };
    case 'requires_payment_method':
      return declinedOf(pi);
    default:
      throw unexpectedStatus(pi);
  }
}

/** The answer to a confirmed, automatically captured off-session PaymentIntent. */
export function chargeResultOf(pi: Stripe.PaymentIntent): ChargeResult {
  switch (pi.status) {
    case 'succeeded':
      return { status: 'succeeded', paymentIntentId: pi.id, amountCents: pi.amount_received };
    case 'requires_action':
      return { status: 'authentication_required', paymentIntentId: pi.id, clientSecret: pi.client_secret };
    case 'requires_payment_method':
      return declinedOf(pi);
    default:
      throw unexpectedStatus(pi);
  }
}

/**
 * A card error thrown by a confirming call, as the port's outcome. Off-session, Stripe answers a card that wants
 * 3-D Secure with a 402 `authentication_required` rather than a `requires_action` PaymentIntent.
 */
export function cardErrorOutcome(
  error: StripeErrorLike,
): Extract<HoldResult, { status: 'declined' | 'authentication_required' }> {
  const pi = error.payment_intent;
  if ((error.code === 'authentication_required' || error.decline_code === 'authentication_required') && pi) {
    return { status: 'authentication_required', paymentIntentId: pi.id, clientSecret: pi.client_secret ?? null };
  }
  return {
    status: 'declined',
    paymentIntentId: pi?.id ?? null,
    declineCode: error.decline_code ?? error.code ?? 'card_declined',
    message: error.message,
  };
}

function declinedOf(pi: Stripe.PaymentIntent): Extract<HoldResult, { status: 'declined' }> {
  const failure = pi.last_payment_error;
  return {
    status: 'declined',
    paymentIntentId: pi.id,
    declineCode: failure?.decline_code ?? failure?.code ?? 'card_declined',
    message: failure?.message ?? 'The card was declined.',
  };
}

function unexpectedStatus(pi: Stripe.PaymentIntent): PaymentGatewayError {
  return new PaymentGatewayError('provider_error', `PaymentIntent ${pi.id} is unexpectedly ${pi.status}.`);
}
