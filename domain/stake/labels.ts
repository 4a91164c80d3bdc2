import type { StakeState } from './state.ts';

/** The stake statuses of the spec (§3) plus `uncollectible`, as the read model and API expose them. */
export const STAKE_PUBLIC_STATUSES = [
  'pending',
  'active',
  'succeeded',
  'refunded',
  'forfeited',
  'lost',
  'uncollectible',
] as const;

/** A stake status as the read model and API expose it. */
export type StakePublicStatus = (typeof STAKE_PUBLIC_STATUSES)[number];

/**
 * The spec status of a stake state. An unsecured stake still stands (it will be charged on a miss), so it reads as
 * active; a stake whose money is being collected reads as pending until the provider answers.
 */
export function publicStakeStatus(status: Exclude<StakeState['status'], 'none'>): StakePublicStatus {
  switch (status) {
    case 'pending':
    case 'capturing':
    case 'charging':
    case 'charge_failed':
      return 'pending';
    case 'active':
    case 'unsecured':
      return 'active';
    case 'succeeded':
    case 'refunded':
    case 'lost':
    case 'forfeited':
    case 'uncollectible':
      return status;
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/**
 * The label the Stakes tab shows (§4): succeeded and refunded read 'Refunded', forfeited 'Forfeited', active
 * 'Active'. Decided here: lost (a missed goal's stake, captured or charged) also reads 'Forfeited', as the demo and
 * the product's copy say of a missed stake (the §4 fallback 'Pending' would tell someone charged that nothing happened
 * yet), and uncollectible (every charge attempt failed, nothing taken) reads 'Not charged'. Anything else reads
 * 'Pending'.
 */
export function stakeLabel(status: string): string {
  switch (status) {
    case 'succeeded':
    case 'refunded':
      return 'Refunded';
    case 'forfeited':
    case 'lost':
      return 'Forfeited';
    case 'active':
      return 'Active';
    case 'uncollectible':
      return 'Not charged';
    default:
      return 'Pending';
  }
}

/**
 * The label with what an appeal or a refund changed (issue 25): a stake released because its appeal was accepted
 * reads 'Refunded after appeal'; a lost stake given back for late evidence reads 'Refunded' once the provider did it,
 * 'Refund pending' before; an appeal waiting for its decision reads 'Appeal pending'.
 */
export function stakeLabelWithAppeal(
  status: string,
  appeal: { readonly status: string } | null | undefined,
  refund: { readonly status: string } | null | undefined,
): string {
  if (status === 'succeeded' && appeal?.status === 'accepted') return 'Refunded after appeal';
  if (status === 'lost' && refund?.status === 'done') return 'Refunded';
  if (status === 'lost' && refund?.status === 'requested') return 'Refund pending';
  if ((status === 'active' || status === 'pending') && (appeal?.status === 'open' || appeal?.status === 'referred')) {
    return 'Appeal pending';
  }
  return stakeLabel(status);
}
