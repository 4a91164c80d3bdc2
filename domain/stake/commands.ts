import type { Temporal } from 'temporal-polyfill';
import type { AppealReason } from './appeal-events.ts';
import type { ChargeFailure } from './events.ts';

/** Put a stake on a goal (when a staked goal is created). */
export interface OpenStake {
  readonly type: 'OpenStake';
  readonly stakeId: string;
  readonly goalId: string;
  readonly userId: string;
  readonly amountCents: number;
  readonly charityId: string | null;
  readonly paymentMethodId: string;
  readonly weekStart: string;
  readonly timeZone: string;
  readonly now: Temporal.Instant;
}

/** The provider placed the hold (issued after the goal became active). */
export interface RecordHoldPlaced {
  readonly type: 'RecordHoldPlaced';
  readonly paymentIntentId: string;
  readonly captureBefore: Temporal.Instant;
  readonly now: Temporal.Instant;
}

/** The provider refused the hold. */
export interface RecordHoldFailed {
  readonly type: 'RecordHoldFailed';
  readonly reason: string;
  readonly now: Temporal.Instant;
}

/** The hold lapsed, or is within the margin of its deadline (policy.ts); also the answer to a capture that came too late. */
export interface RecordHoldExpired {
  readonly type: 'RecordHoldExpired';
  readonly now: Temporal.Instant;
}

/** The goal was completed: release. */
export interface SettleCompleted {
  readonly type: 'SettleCompleted';
  readonly now: Temporal.Instant;
}

/** The goal was missed: collect, once the week may be settled. */
export interface SettleMissed {
  readonly type: 'SettleMissed';
  readonly now: Temporal.Instant;
}

/** The goal was canceled while active: collect as forfeited. */
export interface SettleCanceled {
  readonly type: 'SettleCanceled';
  readonly now: Temporal.Instant;
}

/** The goal was canceled or deleted before anything was at risk: end without money. */
export interface VoidStake {
  readonly type: 'VoidStake';
  readonly now: Temporal.Instant;
}

/** The provider captured the hold. */
export interface RecordCaptureSucceeded {
  readonly type: 'RecordCaptureSucceeded';
  readonly capturedCents: number;
  readonly now: Temporal.Instant;
}

/** Off-session charge `attempt` succeeded. */
export interface RecordChargeSucceeded {
  readonly type: 'RecordChargeSucceeded';
  readonly attempt: number;
  readonly paymentIntentId: string;
  readonly capturedCents: number;
  readonly now: Temporal.Instant;
}

/** Off-session charge `attempt` was declined or needs the customer to authenticate. */
export interface RecordChargeFailed {
  readonly type: 'RecordChargeFailed';
  readonly attempt: number;
  readonly failure: ChargeFailure;
  /** The issuer's reason when the provider gave one (`insufficient_funds`…), so the runner can be told what to fix. */
  readonly declineCode?: string | null;
  readonly now: Temporal.Instant;
}

/** The clock process asks for the next charge attempt. */
export interface RetryCharge {
  readonly type: 'RetryCharge';
  readonly now: Temporal.Instant;
}

/** Every command of the stake aggregate. */
export type StakeCommand =
  | OpenStake
  | RecordHoldPlaced
  | RecordHoldFailed
  | RecordHoldExpired
  | SettleCompleted
  | SettleMissed
  | SettleCanceled
  | VoidStake
  | RecordCaptureSucceeded
  | RecordChargeSucceeded
  | RecordChargeFailed
  | RetryCharge
  | StakeAppealCommand;

/** The runner appeals a missed staked week (from its last day until settlement). */
export interface AppealStake {
  readonly type: 'AppealStake';
  readonly userId: string;
  readonly reason: AppealReason;
  readonly note: string;
  readonly runIds: readonly string[];
  readonly now: Temporal.Instant;
}

/** A member of one of the runner's groups vouches for the runner (the route checks the shared group). */
export interface VouchForStake {
  readonly type: 'VouchForStake';
  readonly voucherId: string;
  readonly now: Temporal.Instant;
}

/** The rules could not accept the appeal: an operator will decide. */
export interface ReferAppeal {
  readonly type: 'ReferAppeal';
  readonly evidenceProgress: number;
  readonly target: number;
  readonly now: Temporal.Instant;
}

/** The appeal is accepted (by the evidence rules or an operator): release the stake. */
export interface AcceptAppeal {
  readonly type: 'AcceptAppeal';
  readonly decidedBy: 'rules' | 'operator';
  readonly note: string;
  readonly now: Temporal.Instant;
}

/** An operator refuses the appeal: settlement goes on. */
export interface RefuseAppeal {
  readonly type: 'RefuseAppeal';
  readonly note: string;
  readonly now: Temporal.Instant;
}

/** Evidence that completes the week arrived after the stake was collected: give the money back (once). */
export interface RefundForLateEvidence {
  readonly type: 'RefundForLateEvidence';
  readonly evidenceRunId: string;
  readonly now: Temporal.Instant;
}

/** The provider refunded the stake. */
export interface RecordRefundSucceeded {
  readonly type: 'RecordRefundSucceeded';
  readonly refundedCents: number;
  readonly now: Temporal.Instant;
}

/** The commands of appeals and refunds (appeal-decide.ts). */
export type StakeAppealCommand =
  | AppealStake
  | VouchForStake
  | ReferAppeal
  | AcceptAppeal
  | RefuseAppeal
  | RefundForLateEvidence
  | RecordRefundSucceeded;
