import type { Locator } from 'playwright-core';

/** An expiry three years from now, as the form's 'MM / YY' field shows it: in the future for every journey's clock. */
export function futureExpiry(now = new Date()): string {
  return `12 / ${String((now.getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

/**
 * Types a card into the local gateway's card form (the payment step without a Stripe key) as a runner does: number,
 * expiry, CVC and postcode, each field found by its label. `scope` is the dialog or form holding it.
 */
export async function fillLocalCard(
  scope: Locator,
  number: string,
  other: { expiry?: string; cvc?: string; postcode?: string } = {},
): Promise<void> {
  await scope.getByLabel('Card number').fill(number);
  await scope.getByLabel('Expiry').fill(other.expiry ?? futureExpiry());
  await scope.getByLabel('CVC').fill(other.cvc ?? '123');
  await scope.getByLabel('Postcode').fill(other.postcode ?? '10001');
}
