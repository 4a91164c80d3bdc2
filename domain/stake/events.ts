import { z } from 'zod';
import { entityId, isoDate, isoInstant } from '../shared/event-schema.ts';
import {
  StakeAppealAccepted,
  StakeAppealed,
  StakeAppealReferred,
  StakeAppealRefused,
  StakeRefundRequested,
  StakeVouched,
} from './appeal-events.ts';

const stakeId = entityId;
const cents = z.number().int().nonnegative();

/** What a stake is for; fixed when it is opened. */
export const StakeTerms = z.object({
  stakeId,
  goalId: entityId,
  userId: entityId,
  amountCents: z.number().int().positive(),
  charityId: z.string().nullable(),
  /** The saved card (SetupIntent, usage off_session) for the hold and any off-session charge. */
  paymentMethodId: z.string().min(1),
  /** The goal's week and zone: settlement of a miss waits for both (see shared/settlement.ts). */
  weekStart: isoDate,
  timeZone: z.string().min(1),
});
/** What a stake is for; fixed when it is opened. */
export type StakeTerms = z.infer<typeof StakeTerms>;

/** Why money is taken: the goal was missed (lost) or canceled while active (forfeited). */
export const CollectionOutcome = z.enum(['lost', 'forfeited']);
/** Why money is taken. */
export type CollectionOutcome = z.infer<typeof CollectionOutcome>;

/** A failed off-session charge. */
export const ChargeFailure = z.enum(['declined', 'authentication_required']);
/** A failed off-session charge. */
export type ChargeFailure = z.infer<typeof ChargeFailure>;

/** A stake was put on a goal; no money is touched yet. */
export const StakeOpened = z.object({
  type: z.literal('StakeOpened'),
  data: StakeTerms.extend({ openedAt: isoInstant }),
});
/** A stake was put on a goal. */
export type StakeOpened = z.infer<typeof StakeOpened>;

/** The provider authorised a hold (manual capture) with the deadline it reported. */
export const StakeHoldPlaced = z.object({
  type: z.literal('StakeHoldPlaced'),
  data: z.object({
    stakeId,
    paymentIntentId: z.string().min(1),
    /** `payment_method_details.card.capture_before` of the charge. */
    captureBefore: isoInstant,
    idempotencyKey: z.string().min(1),
    placedAt: isoInstant,
  }),
});
/** The provider authorised a hold. */
export type StakeHoldPlaced = z.infer<typeof StakeHoldPlaced>;

/** The hold could not be placed; the stake stands, unsecured. */
export const StakeHoldFailed = z.object({
  type: z.literal('StakeHoldFailed'),
  data: z.object({ stakeId, reason: z.string(), idempotencyKey: z.string().min(1), failedAt: isoInstant }),
});
/** The hold could not be placed. */
export type StakeHoldFailed = z.infer<typeof StakeHoldFailed>;

/** The hold lapsed or is about to: it will not be captured; a miss will be charged off-session. */
export const StakeHoldExpired = z.object({
  type: z.literal('StakeHoldExpired'),
  data: z.object({
    stakeId,
    paymentIntentId: z.string().min(1),
    captureBefore: isoInstant,
    expiredAt: isoInstant,
  }),
});
/** The hold lapsed or is about to. */
export type StakeHoldExpired = z.infer<typeof StakeHoldExpired>;

/**
 * The stake ends without money taken: `succeeded` when the goal was completed, `refunded` when it was voided
 * (canceled before anything was at risk). The process manager cancels the hold, if any, with `idempotencyKey`.
 */
export const StakeReleased = z.object({
  type: z.literal('StakeReleased'),
  data: z.object({
    stakeId,
    outcome: z.enum(['succeeded', 'refunded']),
    paymentIntentId: z.string().nullable(),
    idempotencyKey: z.string().min(1),
    releasedAt: isoInstant,
  }),
});
/** The stake ends without money taken. */
export type StakeReleased = z.infer<typeof StakeReleased>;

/** A hold turned up after the stake no longer needed it (a race with completion); it is released, nothing else. */
export const StakeLateHoldReleased = z.object({
  type: z.literal('StakeLateHoldReleased'),
  data: z.object({
    stakeId,
    paymentIntentId: z.string().min(1),
    idempotencyKey: z.string().min(1),
    releasedAt: isoInstant,
  }),
});
/** A hold turned up after the stake no longer needed it. */
export type StakeLateHoldReleased = z.infer<typeof StakeLateHoldReleased>;

/** Capture of the live hold was decided; the process manager captures with `idempotencyKey`. */
export const StakeCaptureRequested = z.object({
  type: z.literal('StakeCaptureRequested'),
  data: z.object({
    stakeId,
    outcome: CollectionOutcome,
    paymentIntentId: z.string().min(1),
    amountCents: cents,
    captureBefore: isoInstant,
    idempotencyKey: z.string().min(1),
    requestedAt: isoInstant,
  }),
});
/** Capture of the live hold was decided. */
export type StakeCaptureRequested = z.infer<typeof StakeCaptureRequested>;

/** An off-session charge on the saved card was decided (no live hold); attempt n has key `stake-<id>-charge-<n>`. */
export const StakeChargeRequested = z.object({
  type: z.literal('StakeChargeRequested'),
  data: z.object({
    stakeId,
    outcome: CollectionOutcome,
    attempt: z.number().int().positive(),
    amountCents: cents,
    paymentMethodId: z.string().min(1),
    idempotencyKey: z.string().min(1),
    requestedAt: isoInstant,
  }),
});
/** An off-session charge was decided. */
export type StakeChargeRequested = z.infer<typeof StakeChargeRequested>;

/** An off-session charge attempt failed; `nextAttemptAt` is null when no attempts are left. */
export const StakeChargeFailed = z.object({
  type: z.literal('StakeChargeFailed'),
  data: z.object({
    stakeId,
    attempt: z.number().int().positive(),
    failure: ChargeFailure,
    /** The issuer's reason (`insufficient_funds`, `generic_decline`…); absent when the provider gave none. */
    declineCode: z.string().optional(),
    nextAttemptAt: isoInstant.nullable(),
    failedAt: isoInstant,
  }),
});
/** An off-session charge attempt failed. */
export type StakeChargeFailed = z.infer<typeof StakeChargeFailed>;

/** The money was taken (by capture or charge) and split: donation + fee = captured. Final: lost or forfeited. */
export const StakeCollected = z.object({
  type: z.literal('StakeCollected'),
  data: z.object({
    stakeId,
    outcome: CollectionOutcome,
    method: z.enum(['capture', 'charge']),
    paymentIntentId: z.string().min(1),
    capturedCents: cents,
    donationCents: cents,
    feeCents: cents,
    charityId: z.string().nullable(),
    collectedAt: isoInstant,
  }),
});
/** The money was taken and split. */
export type StakeCollected = z.infer<typeof StakeCollected>;

/** Every charge attempt failed; the stake ends uncollected. Final. */
export const StakeWrittenOff = z.object({
  type: z.literal('StakeWrittenOff'),
  data: z.object({ stakeId, attempts: z.number().int().positive(), writtenOffAt: isoInstant }),
});
/** Every charge attempt failed. */
export type StakeWrittenOff = z.infer<typeof StakeWrittenOff>;

/**
 * Money given back to the runner after it was collected (late evidence: StakeRefundRequested, appeal-events.ts). `donationRefundCents` is the part the charity gives back and `feeRefundCents` ours; they sum to
 * `refundedCents` and follow `splitRefund` (domain/shared/money.ts). The stake's status does not change.
 */
export const StakeRefunded = z.object({
  type: z.literal('StakeRefunded'),
  data: z.object({
    stakeId,
    paymentIntentId: z.string().min(1),
    refundedCents: z.number().int().positive(),
    donationRefundCents: cents,
    feeRefundCents: cents,
    charityId: z.string().nullable(),
    reason: z.string().min(1),
    idempotencyKey: z.string().min(1),
    refundedAt: isoInstant,
  }),
});
/** Money given back after it was collected. */
export type StakeRefunded = z.infer<typeof StakeRefunded>;

/** Every event of the stake stream `stake-<id>`: the stake decider's schema. */
export const StakeEvent = z.discriminatedUnion('type', [
  StakeOpened,
  StakeHoldPlaced,
  StakeHoldFailed,
  StakeHoldExpired,
  StakeReleased,
  StakeLateHoldReleased,
  StakeCaptureRequested,
  StakeChargeRequested,
  StakeChargeFailed,
  StakeCollected,
  StakeWrittenOff,
  StakeRefunded,
  StakeAppealed,
  StakeVouched,
  StakeAppealReferred,
  StakeAppealAccepted,
  StakeAppealRefused,
  StakeRefundRequested,
]);
/** Every event of the stake stream `stake-<id>`. */
export type StakeEvent = z.infer<typeof StakeEvent>;
