import type { ChargeFailure, CollectionOutcome, StakeEvent, StakeTerms } from './events.ts';

/** A live authorization on the card. */
export interface Hold {
  readonly paymentIntentId: string;
  /** ISO instant: the provider's capture_before. */
  readonly captureBefore: string;
}

/** A runner's appeal of a missed week (appeal-decide.ts): open, waiting for an operator, or decided. */
export interface AppealState {
  readonly status: 'open' | 'referred' | 'accepted' | 'refused';
  /** Settlement waits for the decision until then; undecided then, it is decided for the runner. */
  readonly decideBy: string;
  readonly vouchers: readonly string[];
}

/** The money taken: what a refund gives back and how it is split. */
export interface Collection {
  readonly paymentIntentId: string;
  readonly capturedCents: number;
  readonly collectedAt: string;
}

/** A refund of the collected money: asked of the provider, then done. There is never a second one. */
export interface RefundState {
  readonly status: 'requested' | 'done';
  readonly amountCents: number;
  readonly idempotencyKey: string;
}

/** What every existing stake carries besides its status. */
interface Common {
  readonly terms: StakeTerms;
  /** The hold the stake placed, if any, even once released or expired (to recognise a duplicate report of it). */
  readonly knownHold: string | null;
  readonly appeal: AppealState | null;
  readonly collection: Collection | null;
  readonly refund: RefundState | null;
}

interface Base<Status extends string> extends Common {
  readonly status: Status;
}

/**
 * The stake's lifecycle.
 * - pending: opened; the hold goes on when the goal becomes active.
 * - active: a hold is live.
 * - unsecured: no live hold (it failed or expired); the stake still stands and a miss is charged off-session.
 * - capturing: capture of the live hold was requested.
 * - charging: off-session charge `attempt` was requested; charge_failed: it failed and `nextAttemptAt` is due.
 * - final (each reached at most once): succeeded, refunded, lost, forfeited, uncollectible.
 */
export type StakeState =
  | { readonly status: 'none' }
  | Base<'pending'>
  | (Base<'active'> & { readonly hold: Hold })
  | (Base<'unsecured'> & { readonly reason: 'hold_failed' | 'hold_expired' })
  | (Base<'capturing'> & { readonly hold: Hold; readonly outcome: CollectionOutcome })
  | (Base<'charging'> & { readonly outcome: CollectionOutcome; readonly attempt: number })
  | (Base<'charge_failed'> & {
      readonly outcome: CollectionOutcome;
      readonly attempt: number;
      readonly failure: ChargeFailure;
      readonly nextAttemptAt: string;
    })
  | Base<FinalStakeStatus>;

/** The statuses a stake ends in, each reached at most once; the read model's `stage` is final exactly in these. */
export const FINAL_STAKE_STATUSES = ['succeeded', 'refunded', 'lost', 'forfeited', 'uncollectible'] as const;

/** A status a stake ends in. */
export type FinalStakeStatus = (typeof FINAL_STAKE_STATUSES)[number];

/** A stake that exists. */
export type OpenStakeState = Exclude<StakeState, { readonly status: 'none' }>;

/** Whether a status is final. */
export function isFinal(status: StakeState['status']): status is FinalStakeStatus {
  return (FINAL_STAKE_STATUSES as readonly string[]).includes(status);
}

/** The state before the first event. */
export const initialStakeState: StakeState = { status: 'none' };

/** Applies one event. */
export function evolveStake(state: StakeState, event: StakeEvent): StakeState {
  if (event.type === 'StakeOpened') {
    const { openedAt: _openedAt, ...terms } = event.data;
    return { status: 'pending', terms, knownHold: null, appeal: null, collection: null, refund: null };
  }
  if (state.status === 'none') return state;
  const base: Common = {
    terms: state.terms,
    knownHold: state.knownHold,
    appeal: state.appeal,
    collection: state.collection,
    refund: state.refund,
  };
  switch (event.type) {
    case 'StakeHoldPlaced': {
      const hold = { paymentIntentId: event.data.paymentIntentId, captureBefore: event.data.captureBefore };
      return { ...base, status: 'active', hold, knownHold: hold.paymentIntentId };
    }
    case 'StakeHoldFailed':
      return { ...base, status: 'unsecured', reason: 'hold_failed' };
    case 'StakeHoldExpired':
      return { ...base, status: 'unsecured', reason: 'hold_expired' };
    case 'StakeReleased':
      return { ...base, status: event.data.outcome };
    case 'StakeLateHoldReleased':
      return state;
    case 'StakeAppealReferred':
      return withAppeal(state, (appeal) => ({ ...appeal, status: 'referred' }));
    case 'StakeAppealed':
      return { ...state, appeal: { status: 'open', decideBy: event.data.decideBy, vouchers: [] } };
    case 'StakeVouched':
      return withAppeal(state, (appeal) => ({ ...appeal, vouchers: [...appeal.vouchers, event.data.voucherId] }));
    case 'StakeAppealAccepted':
      return withAppeal(state, (appeal) => ({ ...appeal, status: 'accepted' }));
    case 'StakeAppealRefused':
      return withAppeal(state, (appeal) => ({ ...appeal, status: 'refused' }));
    case 'StakeRefundRequested': {
      const { amountCents, idempotencyKey } = event.data;
      return { ...state, refund: { status: 'requested', amountCents, idempotencyKey } };
    }
    // A refund gives money back; the stake keeps the outcome that took it (the ledger and the timeline show it).
    case 'StakeRefunded': {
      const { refundedCents: amountCents, idempotencyKey } = event.data;
      return { ...state, refund: { status: 'done', amountCents, idempotencyKey } };
    }
    case 'StakeCaptureRequested':
      return state.status === 'active'
        ? { ...base, status: 'capturing', hold: state.hold, outcome: event.data.outcome }
        : state;
    case 'StakeChargeRequested':
      return { ...base, status: 'charging', outcome: event.data.outcome, attempt: event.data.attempt };
    case 'StakeChargeFailed':
      if (state.status !== 'charging' || event.data.nextAttemptAt === null) return state;
      return {
        ...base,
        status: 'charge_failed',
        outcome: state.outcome,
        attempt: event.data.attempt,
        failure: event.data.failure,
        nextAttemptAt: event.data.nextAttemptAt,
      };
    case 'StakeCollected': {
      const { paymentIntentId, capturedCents, collectedAt } = event.data;
      return { ...base, status: event.data.outcome, collection: { paymentIntentId, capturedCents, collectedAt } };
    }
    case 'StakeWrittenOff':
      return { ...base, status: 'uncollectible' };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The state with its appeal changed (an appeal event without an appeal changes nothing). */
function withAppeal(state: OpenStakeState, change: (appeal: AppealState) => AppealState): OpenStakeState {
  return state.appeal === null ? state : { ...state, appeal: change(state.appeal) };
}
