import type { Temporal } from 'temporal-polyfill';

/**
 * How long before the provider's `capture_before` we stop trusting a hold. A capture requested later than this
 * could reach the provider after the deadline (process lag, clock skew) and fail with charge_expired_for_capture;
 * so from this point the hold is treated as expired and a miss is charged off-session instead.
 */
export const HOLD_EXPIRY_MARGIN = { hours: 1 } as const;

/** Off-session charge attempts before the stake is written off as uncollectible. */
export const MAX_CHARGE_ATTEMPTS = 3;

/**
 * Wait after failed attempt n (1-based) before attempt n + 1: a day, then three. Card declines rarely clear within
 * minutes; spacing the attempts avoids a retry storm and gives the user time to authenticate or update the card.
 */
export const CHARGE_RETRY_DELAYS: readonly { readonly hours: number }[] = [{ hours: 24 }, { hours: 72 }];

/** The moment from which a hold with this deadline may no longer be captured. */
export function holdUnusableFrom(captureBefore: Temporal.Instant): Temporal.Instant {
  return captureBefore.subtract(HOLD_EXPIRY_MARGIN);
}

/** When attempt `failedAttempt + 1` may run, or null when no attempts are left. */
export function nextChargeAttemptAt(failedAttempt: number, now: Temporal.Instant): Temporal.Instant | null {
  if (failedAttempt >= MAX_CHARGE_ATTEMPTS) return null;
  const delay = CHARGE_RETRY_DELAYS[failedAttempt - 1] ?? CHARGE_RETRY_DELAYS[CHARGE_RETRY_DELAYS.length - 1];
  return delay === undefined ? null : now.add(delay);
}

/** The actions that reach the payment provider, each with its own idempotency key. */
export type StakeAction = 'hold' | 'release' | 'capture' | 'refund' | `charge-${number}` | `release-${string}`;

/**
 * A deterministic idempotency key for a provider call: the same stake and action always give the same key, so a
 * process manager that crashed after calling the provider and before recording the result replays the call safely.
 */
export function stakeIdempotencyKey(stakeId: string, action: StakeAction): string {
  return `stake-${stakeId}-${action}`;
}
