/** An amount of money in integer cents (USD). Never a float of dollars. */
export type Cents = number;

/** The stake choices of §9, in cents: free, $5, $10, $20, $50, $100. */
export const STAKE_OPTIONS_CENTS = [0, 500, 1000, 2000, 5000, 10000] as const;

/** One of the allowed stakes. */
export type StakeOptionCents = (typeof STAKE_OPTIONS_CENTS)[number];

/** The charity's share of a captured stake when a charity was chosen (§1, §9). */
export const CHARITY_SHARE_PERCENT = 80;

/** Whether a number is a whole, non-negative amount of cents. */
export function isCents(value: number): value is Cents {
  return Number.isSafeInteger(value) && value >= 0;
}

/** Whether an amount is one of the stake options. */
export function isStakeOption(value: number): value is StakeOptionCents {
  return (STAKE_OPTIONS_CENTS as readonly number[]).includes(value);
}

/** How a captured stake is divided. `donationCents + feeCents` always equals what was captured. */
export interface CaptureSplit {
  readonly donationCents: Cents;
  readonly feeCents: Cents;
}

/**
 * Splits a captured stake: 80% to the charity rounded down to a whole cent and the remainder as the service fee,
 * or all of it as fee without a charity. Rounding down favours neither side by more than a cent and keeps the sum
 * exact, so the ledger always balances.
 */
export function splitCapture(capturedCents: Cents, hasCharity: boolean): CaptureSplit {
  if (!isCents(capturedCents)) throw new RangeError(`Not an amount of cents: ${capturedCents}`);
  const donationCents = hasCharity ? Math.floor((capturedCents * CHARITY_SHARE_PERCENT) / 100) : 0;
  return { donationCents, feeCents: capturedCents - donationCents };
}

/**
 * Formats cents as dollars: 500 → '$5', 1050 → '$10.50', 123456 → '$1,234.56'. Whole dollars drop the cents (a stake
 * reads '$10'), unless `alwaysCents` asks for an amount as it would be paid ('$8.00').
 */
export function formatDollars(cents: Cents, options: { readonly alwaysCents?: boolean } = {}): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  const rest = abs % 100;
  if (rest === 0 && !options.alwaysCents) return `${sign}$${dollars}`;
  return `${sign}$${dollars}.${String(rest).padStart(2, '0')}`;
}

/**
 * Splits a refund of a collected stake between the charity's share and ours, so that refunds taken together never
 * give back more of a share than the capture gave it: the charity gives back the 80% share (rounded down, as in
 * `splitCapture`) of everything refunded so far, less what earlier refunds already took from it. A full refund, in
 * one piece or many, therefore gives back exactly the capture's donation and fee, to the cent.
 */
export function splitRefund(
  capturedCents: Cents,
  alreadyRefundedCents: Cents,
  refundCents: Cents,
  hasCharity: boolean,
): CaptureSplit {
  if (!isCents(alreadyRefundedCents) || !isCents(refundCents) || refundCents === 0) {
    throw new RangeError(`Not a refund: ${refundCents} after ${alreadyRefundedCents}`);
  }
  if (alreadyRefundedCents + refundCents > capturedCents) {
    throw new RangeError(`Refunds of ${alreadyRefundedCents + refundCents} exceed the capture of ${capturedCents}`);
  }
  const before = splitCapture(alreadyRefundedCents, hasCharity).donationCents;
  const after = splitCapture(alreadyRefundedCents + refundCents, hasCharity).donationCents;
  return { donationCents: after - before, feeCents: refundCents - (after - before) };
}
