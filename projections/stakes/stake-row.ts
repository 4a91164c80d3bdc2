import { evolveStake } from '../../domain/stake/state.ts';
import { emptyHoldTimeline, evolveHoldTimeline, type HoldTimeline } from '../../domain/stake/hold-timeline.ts';
import type { StakeEvent } from '../../domain/stake/events.ts';
import { publicStakeStatus } from '../../domain/stake/labels.ts';
import type { StakeState } from '../../domain/stake/state.ts';

/** A row of the stakes read model (kysely table type). */
export type StakesTable = {
  id: string;
  goal_id: string;
  user_id: string;
  week_start: string;
  amount_cents: number;
  charity_id: string | null;
  /** Public status (§3) for the Stakes tab: pending, active, succeeded, refunded, forfeited, lost, uncollectible. */
  status: string;
  /** The aggregate's own status (capturing, charge_failed…), for support and the money screens. */
  stage: string;
  captured_cents: number;
  donation_amount_cents: number;
  fee_cents: number;
  /**
   * The last payment problem shown to the runner until the stake is settled: hold_failed (the hold at the start of the
   * week was refused; the stake stands unsecured), declined or authentication_required (an off-session charge).
   */
  last_failure: string | null;
  /** The issuer's reason for that problem when the provider gave one (insufficient_funds, generic_decline…). */
  decline_code: string | null;
  next_attempt_at: string | null;
  hold_capture_before: string | null;
  created_at: string;
  settled_at: string | null;
  /** Given back after collection (StakeRefunded), in cents. */
  refunded_cents: number;
  state: StakeState;
  /** The hold's timeline (domain/stake/hold-timeline.ts), folded from the same events. */
  hold: HoldTimeline;
};

/** The row after one more event: the state is folded with the aggregate's own evolve, so they never disagree. */
export function nextStakeRow(row: StakesTable | null, event: StakeEvent): StakesTable | null {
  const state = evolveStake(row?.state ?? { status: 'none' }, event);
  if (state.status === 'none') return row;
  const t = state.terms;
  const base: StakesTable = row ?? {
    id: t.stakeId,
    goal_id: t.goalId,
    user_id: t.userId,
    week_start: t.weekStart,
    amount_cents: t.amountCents,
    charity_id: t.charityId,
    status: 'pending',
    stage: 'pending',
    captured_cents: 0,
    donation_amount_cents: 0,
    fee_cents: 0,
    last_failure: null,
    decline_code: null,
    next_attempt_at: null,
    hold_capture_before: null,
    created_at: event.type === 'StakeOpened' ? event.data.openedAt : '',
    settled_at: null,
    refunded_cents: 0,
    state,
    hold: emptyHoldTimeline,
  };
  const next: StakesTable = {
    ...base,
    state,
    stage: state.status,
    status: publicStakeStatus(state.status),
    hold: evolveHoldTimeline(row?.hold ?? emptyHoldTimeline, event),
  };
  switch (event.type) {
    case 'StakeHoldPlaced':
      return { ...next, hold_capture_before: event.data.captureBefore };
    case 'StakeHoldFailed':
      return { ...next, last_failure: 'hold_failed', decline_code: event.data.reason };
    case 'StakeChargeFailed':
      return {
        ...next,
        last_failure: event.data.failure,
        decline_code: event.data.declineCode ?? null,
        next_attempt_at: event.data.nextAttemptAt,
      };
    case 'StakeCollected':
      return {
        ...next,
        captured_cents: event.data.capturedCents,
        donation_amount_cents: event.data.donationCents,
        fee_cents: event.data.feeCents,
        last_failure: null,
        decline_code: null,
        next_attempt_at: null,
        settled_at: event.data.collectedAt,
      };
    case 'StakeReleased':
      return { ...next, last_failure: null, decline_code: null, settled_at: event.data.releasedAt };
    case 'StakeRefunded':
      return { ...next, refunded_cents: next.refunded_cents + event.data.refundedCents };
    case 'StakeWrittenOff':
      return { ...next, next_attempt_at: null, settled_at: event.data.writtenOffAt };
    default:
      return next;
  }
}
