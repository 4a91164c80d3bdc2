import { MAX_CHARGE_ATTEMPTS } from '../../../../domain/stake/policy.ts';
import type { Stake } from '../../lib/api-types.ts';

/** The issuer's reasons a runner can act on, in their words. */
const REASONS: Readonly<Record<string, string>> = {
  insufficient_funds: 'insufficient funds',
  expired_card: 'the card has expired',
  lost_card: 'the card was reported lost',
  stolen_card: 'the card was reported stolen',
  card_velocity_exceeded: 'the card’s limit was reached',
  authentication_required: 'your bank asks you to authenticate',
};

const reasonOf = (code: string | null) => (code ? (REASONS[code] ?? null) : null);
const withReason = (text: string, code: string | null) => {
  const reason = reasonOf(code);
  return reason ? `${text} (${reason})` : text;
};

/**
 * What the Stakes tab tells the runner about a payment problem, so a refused card is never silent: a hold that could
 * not be placed (the stake still stands and a miss is charged after the week), a charge that failed and when it is
 * tried again, or a stake written off after every attempt failed. Null when there is nothing to fix.
 */
export function stakeNotice(
  stake: Pick<Stake, 'status' | 'payment_problem' | 'decline_code' | 'next_attempt_at'>,
  timeZone: string,
): string | null {
  if (stake.status === 'uncollectible') {
    return `${withReason('We couldn’t charge your card', stake.decline_code)} after ${MAX_CHARGE_ATTEMPTS} attempts, so nothing was taken.`;
  }
  if (stake.status === 'active' && stake.payment_problem === 'hold_failed') {
    return `${withReason('We couldn’t place the hold on your card', stake.decline_code)}. Your stake still stands: if you miss this goal, your card is charged after the week ends.`;
  }
  if (stake.status !== 'pending' || !stake.payment_problem) return null;
  const retry = stake.next_attempt_at
    ? ` We’ll try again on ${new Date(stake.next_attempt_at).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone })}.`
    : '';
  if (stake.payment_problem === 'authentication_required') return `Your bank asks you to confirm this payment.${retry}`;
  if (stake.payment_problem === 'declined')
    return `${withReason('Your card was declined', stake.decline_code)}.${retry}`;
  return null;
}
