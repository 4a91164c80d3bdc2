/** What a stake is for; fixed when it is opened. */
export interface StakeTerms {
  readonly stakeId: string;
  readonly goalId: string;
  readonly userId: string;
  readonly amountCents: number;
  readonly charityId: string | null;
  /** The saved card (SetupIntent, usage off_session) for the hold and any off-session charge. */
  readonly paymentMethodId: string;
  /** The goal's week and zone: settlement of a miss waits for both (see shared/settlement.ts). */
  readonly weekStart: string;
  readonly timeZone: string;
}

/** Why money is taken: the goal was missed (lost) or canceled while active (forfeited). */
export type CollectionOutcome = 'lost' | 'forfeited';

/** A failed off-session charge. */
export type ChargeFailure = 'declined' | 'authentication_required';

/** A stake was put on a goal; no money is touched yet. */
export interface StakeOpened {
  readonly type: 'StakeOpened';
  readonly data: StakeTerms & { readonly openedAt: string };
}

/** The provider authorised a hold (manual capture) with the deadline it reported. */
export interface StakeHoldPlaced {
  readonly type: 'StakeHoldPlaced';
  readonly data: {
    readonly stakeId: string;
    readonly paymentIntentId: string;
    /** `payment_method_details.card.capture_before` of the charge. */
    readonly captureBefore: string;
    readonly idempotencyKey: string;
    readonly placedAt: string;
  };
}

/** The hold could not be placed; the stake stands, unsecured. */
export interface StakeHoldFailed {
  readonly type: 'StakeHoldFailed';
  readonly data: {
    readonly stakeId: string;
    readonly reason: string;
    readonly idempotencyKey: string;
    readonly failedAt: string;
  };
}

/** The hold lapsed or is about to: it will not be captured; a miss will be charged off-session. */
export interface StakeHoldExpired {
  readonly type: 'StakeHoldExpired';
  readonly data: {
    readonly stakeId: string;
    readonly paymentIntentId: string;
    readonly captureBefore: string;
    readonly expiredAt: string;
  };
}

/**
 * The stake ends without money taken: `succeeded` when the goal was completed, `refunded` when it was voided
 * (canceled before anything was at risk). The process manager cancels the hold, if any, with `idempotencyKey`.
 */
export interface StakeReleased {
  readonly type: 'StakeReleased';
  readonly data: {
    readonly stakeId: string;
    readonly outcome: 'succeeded' | 'refunded';
    readonly paymentIntentId: string | null;
    readonly idempotencyKey: string;
    readonly releasedAt: string;
  };
}

/** A hold turned up after the stake no longer needed it (a race with completion); it is released, nothing else. */
export interface StakeLateHoldReleased {
  readonly type: 'StakeLateHoldReleased';
  readonly data: {
    readonly stakeId: string;
    readonly paymentIntentId: string;
    readonly idempotencyKey: string;
    readonly releasedAt: string;
  };
}

/** Capture of the live hold was decided; the process manager captures with `idempotencyKey`. */
export interface StakeCaptureRequested {
  readonly type: 'StakeCaptureRequested';
  readonly data: {
    readonly stakeId: string;
    readonly outcome: CollectionOutcome;
    readonly paymentIntentId: string;
    readonly amountCents: number;
    readonly captureBefore: string;
    readonly idempotencyKey: string;
    readonly requestedAt: string;
  };
}

/** An off-session charge on the saved card was decided (no live hold); attempt n has key `stake-<id>-charge-<n>`. */
export interface StakeChargeRequested {
  readonly type: 'StakeChargeRequested';
  readonly data: {
    readonly stakeId: string;
    readonly outcome: CollectionOutcome;
    readonly attempt: number;
    readonly amountCents: number;
    readonly paymentMethodId: string;
    readonly idempotencyKey: string;
    readonly requestedAt: string;
  };
}

/** An off-session charge attempt failed; `nextAttemptAt` is null when no attempts are left. */
export interface StakeChargeFailed {
  readonly type: 'StakeChargeFailed';
  readonly data: {
    readonly stakeId: string;
    readonly attempt: number;
    readonly failure: ChargeFailure;
    readonly nextAttemptAt: string | null;
    readonly failedAt: string;
  };
}

/** The money was taken (by capture or charge) and split: donation + fee = captured. Final: lost or forfeited. */
export interface StakeCollected {
  readonly type: 'StakeCollected';
  readonly data: {
    readonly stakeId: string;
    readonly outcome: CollectionOutcome;
    readonly method: 'capture' | 'charge';
    readonly paymentIntentId: string;
    readonly capturedCents: number;
    readonly donationCents: number;
    readonly feeCents: number;
    readonly charityId: string | null;
    readonly collectedAt: string;
  };
}

/** Every charge attempt failed; the stake ends uncollected. Final. */
export interface StakeWrittenOff {
  readonly type: 'StakeWrittenOff';
  readonly data: { readonly stakeId: string; readonly attempts: number; readonly writtenOffAt: string };
}

/** Every event of the stake stream `stake-<id>`. */
export type StakeEvent =
  | StakeOpened
  | StakeHoldPlaced
  | StakeHoldFailed
  | StakeHoldExpired
  | StakeReleased
  | StakeLateHoldReleased
  | StakeCaptureRequested
  | StakeChargeRequested
  | StakeChargeFailed
  | StakeCollected
  | StakeWrittenOff;
