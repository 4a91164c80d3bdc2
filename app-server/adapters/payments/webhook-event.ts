import { PaymentGatewayError } from './payment-errors.ts';
import type { PaymentWebhookEvent } from './payment-gateway.ts';

/**
 * Reduces a Stripe-shaped event (`{ id, type, created, data: { object } }`) to the port's event. Both adapters use
 * it, so a handler sees the same thing whichever gateway signed the event.
 */
export function normaliseWebhookEvent(event: unknown): PaymentWebhookEvent {
  if (!isRecord(event) || typeof event.id !== 'string' || typeof event.type !== 'string') {
    throw new PaymentGatewayError('invalid_request', 'The webhook body is not an event.');
  }
  const created = typeof event.created === 'number' ? event.created : 0;
  const object = isRecord(event.data) && isRecord(event.data.object) ? event.data.object : {};
  return {
    id: event.id,
    type: event.type,
    paymentIntentId: paymentIntentIdOf(object),
    createdAt: new Date(created * 1000).toISOString(),
  };
}

// A charge event names its PaymentIntent (a string, or the object when expanded); a PaymentIntent event is one.
function paymentIntentIdOf(object: Record<string, unknown>): string | null {
  if (object.object === 'payment_intent' && typeof object.id === 'string') return object.id;
  const pi = object.payment_intent;
  if (typeof pi === 'string') return pi;
  if (isRecord(pi) && typeof pi.id === 'string') return pi.id;
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
