import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';

const stakeId = entityId;

/**
 * What the runner says the phone missed (issue 25): a run that counted for XP but not the stake (uploaded late, no
 * signal, a gap), a watch file, a health-store workout, or "a group member saw me run" (then a vouch follows).
 */
export const AppealReason = z.enum(['uploaded_late', 'no_signal', 'gps_gap', 'watch_file', 'health_workout', 'vouch']);
/** What the runner says the phone missed. */
export type AppealReason = z.infer<typeof AppealReason>;

/** Who decided an appeal: the evidence rules, an operator, or the deadline (undecided in time: for the runner). */
export const AppealDecider = z.enum(['rules', 'operator', 'deadline']);
/** Who decided an appeal. */
export type AppealDecider = z.infer<typeof AppealDecider>;

/** The runner appealed a missed staked week before its settlement; settlement waits until `decideBy` at most. */
export const StakeAppealed = z.object({
  type: z.literal('StakeAppealed'),
  data: z.object({
    stakeId,
    reason: AppealReason,
    /** The runner's own words (shown to the operator only); crypto-shredding is not needed: no health data. */
    note: z.string().max(500),
    /** Runs of the week the runner points to (their own; checked by the route). */
    runIds: z.array(entityId).max(20),
    decideBy: isoInstant,
    appealedAt: isoInstant,
  }),
});
/** The runner appealed a missed staked week. */
export type StakeAppealed = z.infer<typeof StakeAppealed>;

/** A member of one of the runner's groups vouches that the runner ran (evidence for the operator). */
export const StakeVouched = z.object({
  type: z.literal('StakeVouched'),
  data: z.object({ stakeId, voucherId: entityId, vouchedAt: isoInstant }),
});
/** A group member vouched for the runner. */
export type StakeVouched = z.infer<typeof StakeVouched>;

/** The rules could not accept the appeal on its evidence: an operator decides. */
export const StakeAppealReferred = z.object({
  type: z.literal('StakeAppealReferred'),
  data: z.object({
    stakeId,
    /** What the runs of the week add up to with the benefit of the device's doubts, against the target. */
    evidenceProgress: z.number().nonnegative(),
    target: z.number().positive(),
    referredAt: isoInstant,
  }),
});
/** The appeal waits for an operator. */
export type StakeAppealReferred = z.infer<typeof StakeAppealReferred>;

/** The appeal was accepted: the stake is released as if the goal had been met (never captured). */
export const StakeAppealAccepted = z.object({
  type: z.literal('StakeAppealAccepted'),
  data: z.object({ stakeId, decidedBy: AppealDecider, note: z.string().max(500), acceptedAt: isoInstant }),
});
/** The appeal was accepted. */
export type StakeAppealAccepted = z.infer<typeof StakeAppealAccepted>;

/** An operator refused the appeal: settlement goes on. */
export const StakeAppealRefused = z.object({
  type: z.literal('StakeAppealRefused'),
  data: z.object({ stakeId, note: z.string().max(500), refusedAt: isoInstant }),
});
/** The appeal was refused. */
export type StakeAppealRefused = z.infer<typeof StakeAppealRefused>;

/** Why money that was taken goes back. */
export const RefundReason = z.enum(['late_evidence']);
/** Why money that was taken goes back. */
export type RefundReason = z.infer<typeof RefundReason>;

/**
 * A refund of a collected stake was decided (late evidence within LATE_EVIDENCE_DAYS of the collection); the stake
 * process refunds with `idempotencyKey` (one key per stake: there is never a second refund) and records StakeRefunded.
 */
export const StakeRefundRequested = z.object({
  type: z.literal('StakeRefundRequested'),
  data: z.object({
    stakeId,
    paymentIntentId: z.string().min(1),
    amountCents: z.number().int().positive(),
    reason: RefundReason,
    /** The run whose arrival completed the week. */
    evidenceRunId: entityId,
    idempotencyKey: z.string().min(1),
    requestedAt: isoInstant,
  }),
});
/** A refund was decided. */
export type StakeRefundRequested = z.infer<typeof StakeRefundRequested>;
