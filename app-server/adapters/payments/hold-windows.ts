const HOUR_MS = 3_600_000;

/** A customer-initiated card authorization lasts 7 days on every network. */
export const CUSTOMER_INITIATED_HOLD_MS = 7 * 24 * HOUR_MS;

/**
 * A merchant-initiated (off-session) Visa authorization lasts about 4 days 18 hours; the other networks keep 7 days.
 * So a hold placed on Monday morning for a Monday-to-Sunday week does not survive until settlement.
 */
export const VISA_MERCHANT_INITIATED_HOLD_MS = (4 * 24 + 18) * HOUR_MS;

/**
 * How long a hold on this card brand stays capturable. The processor's `capture_before` is authoritative; this is the
 * local gateway's model and the Stripe adapter's conservative estimate when a charge does not report its deadline.
 */
export function holdWindowMs(brand: string, customerPresent: boolean): number {
  if (!customerPresent && brand.toLowerCase() === 'visa') return VISA_MERCHANT_INITIATED_HOLD_MS;
  return CUSTOMER_INITIATED_HOLD_MS;
}
