import { PaymentGatewayError } from './payment-errors.ts';

/** Stripe's smallest USD charge: 50 cents. */
export const MINIMUM_CHARGE_CENTS = 50;

/** Refuses a non-integer or too small amount before it reaches the processor (cents, never dollars). */
export function assertChargeAmount(amountCents: number, minimum = MINIMUM_CHARGE_CENTS): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < minimum) {
    throw new PaymentGatewayError(
      'invalid_request',
      `Amount must be a whole number of cents, at least ${minimum}; got ${String(amountCents)}.`,
    );
  }
}

/** Refuses an empty idempotency key: every mutation must be replayable by the caller's key. */
export function assertIdempotencyKey(key: string): void {
  if (typeof key !== 'string' || key.trim() === '' || key.length > 255) {
    throw new PaymentGatewayError('invalid_request', 'An idempotency key of 1 to 255 characters is required.');
  }
}
