import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import type { DomainError } from '../shared/decider.ts';
import { splitRefund } from '../shared/money.ts';
import { appealDecideBy, appealOpensAt, lateEvidenceWindowOpen } from './appeal-policy.ts';
import type { StakeAppealCommand } from './commands.ts';
import type { StakeEvent } from './events.ts';
import { appealErrors, stakeErrors } from './messages.ts';
import { stakeIdempotencyKey } from './policy.ts';
import type { OpenStakeState } from './state.ts';
import { instantIso } from '../shared/instant.ts';

type Decision = Either<DomainError, readonly StakeEvent[]>;

/*
 * APPEALS AND REFUNDS (issue 25: "an appeal you can win").
 *
 * - From the last day of a staked week until it is collected, the runner may appeal once. The evidence rules decide
 *   first (the goal-lifecycle process: the week's runs with the benefit of the device's doubts, evidence.ts); what
 *   they cannot accept is referred to an operator. Group members may vouch meanwhile (evidence for the operator).
 * - Settlement of a missed week waits while the appeal is undecided (SettleMissed is refused, decide.ts), but never
 *   past `decideBy` (appeal-policy.ts): undecided then, the appeal is accepted for the runner.
 * - An accepted appeal releases the stake as a completed goal does: nothing is ever captured after it.
 * - A stake lost within LATE_EVIDENCE_DAYS before evidence that completes its week arrives is refunded in full, once:
 *   one request (one idempotency key per stake), one provider refund, one StakeRefunded.
 */

const at = (now: Temporal.Instant) => instantIso(now);
const STILL_STANDING: ReadonlySet<string> = new Set(['pending', 'active', 'unsecured']);

/** Whether the runner may appeal now: a stake still standing, not appealed yet, from the last day of its week. */
export function mayAppeal(state: OpenStakeState, now: Temporal.Instant): boolean {
  if (!STILL_STANDING.has(state.status) || state.appeal !== null) return false;
  return Temporal.Instant.compare(now, appealOpensAt(state.terms.weekStart, state.terms.timeZone)) >= 0;
}

/**
 * Whether late evidence may still refund the stake: lost (a missed week, collected), not refunded, and at most
 * LATE_EVIDENCE_DAYS after the collection. The one rule the upload window, the evidence weighing and the decider use.
 */
export function takesLateEvidence(state: OpenStakeState, now: Temporal.Instant): boolean {
  return (
    state.status === 'lost' &&
    state.refund === null &&
    state.collection !== null &&
    lateEvidenceWindowOpen(state.collection.collectedAt, now)
  );
}

/**
 * Whether runs of the stake's week can still change it, so an upload into that settled week is saved as evidence:
 * the stake still stands and its appeal is not decided (or not made yet), or late evidence may still refund it.
 */
export function takesEvidence(state: OpenStakeState, now: Temporal.Instant): boolean {
  if (STILL_STANDING.has(state.status)) return state.appeal === null || appealUndecided(state);
  return takesLateEvidence(state, now);
}

/** Whether the stake waits for the decision on its appeal (settlement must not collect it yet). */
export function appealUndecided(state: OpenStakeState): boolean {
  return state.appeal !== null && (state.appeal.status === 'open' || state.appeal.status === 'referred');
}

/** The appeal accepted and the stake released, as a completed goal would be. */
export function acceptAppeal(
  state: OpenStakeState,
  decidedBy: 'rules' | 'operator' | 'deadline',
  note: string,
  now: Temporal.Instant,
): Decision {
  if (!STILL_STANDING.has(state.status)) return left(stakeErrors.beingCollected());
  const { stakeId } = state.terms;
  return right([
    { type: 'StakeAppealAccepted', data: { stakeId, decidedBy, note, acceptedAt: at(now) } },
    {
      type: 'StakeReleased',
      data: {
        stakeId,
        outcome: 'succeeded',
        paymentIntentId: state.status === 'active' ? state.hold.paymentIntentId : null,
        idempotencyKey: stakeIdempotencyKey(stakeId, 'release'),
        releasedAt: at(now),
      },
    },
  ]);
}

/** Decides an appeal, vouch or refund command for a stake that exists (final or not). */
export function decideAppeal(command: StakeAppealCommand, state: OpenStakeState): Decision {
  const { stakeId } = state.terms;
  const now = command.now;
  switch (command.type) {
    case 'AppealStake': {
      if (command.userId !== state.terms.userId) return left(stakeErrors.notFound());
      if (state.appeal !== null) return left(appealErrors.alreadyAppealed());
      if (!STILL_STANDING.has(state.status)) return left(appealErrors.notAppealable());
      const opens = appealOpensAt(state.terms.weekStart, state.terms.timeZone);
      if (Temporal.Instant.compare(now, opens) < 0) {
        const day = opens.toZonedDateTimeISO(state.terms.timeZone).toPlainDate().toString();
        return left(appealErrors.notYet(day));
      }
      const hold = state.status === 'active' ? state.hold : null;
      const decideBy = appealDecideBy(state.terms, hold, now);
      const { reason, note, runIds } = command;
      return right([
        {
          type: 'StakeAppealed',
          data: { stakeId, reason, note, runIds: [...runIds], decideBy: instantIso(decideBy), appealedAt: at(now) },
        },
      ]);
    }
    case 'VouchForStake': {
      if (command.voucherId === state.terms.userId) return left(appealErrors.ownStake());
      if (state.appeal === null || !appealUndecided(state)) return left(appealErrors.noAppeal());
      if (state.appeal.vouchers.includes(command.voucherId)) return left(appealErrors.alreadyVouched());
      return right([{ type: 'StakeVouched', data: { stakeId, voucherId: command.voucherId, vouchedAt: at(now) } }]);
    }
    case 'ReferAppeal': {
      if (state.appeal?.status !== 'open') return right([]); // Referred or decided already: a repeat changes nothing.
      const { evidenceProgress, target } = command;
      return right([{ type: 'StakeAppealReferred', data: { stakeId, evidenceProgress, target, referredAt: at(now) } }]);
    }
    case 'AcceptAppeal': {
      if (state.appeal === null) return left(appealErrors.noAppeal());
      if (state.appeal.status === 'accepted') return right([]);
      if (state.appeal.status === 'refused') return left(appealErrors.decided());
      return acceptAppeal(state, command.decidedBy, command.note, now);
    }
    case 'RefuseAppeal': {
      if (state.appeal === null) return left(appealErrors.noAppeal());
      if (state.appeal.status === 'refused') return right([]);
      if (state.appeal.status === 'accepted') return left(appealErrors.decided());
      return right([{ type: 'StakeAppealRefused', data: { stakeId, note: command.note, refusedAt: at(now) } }]);
    }
    case 'RefundForLateEvidence': {
      if (state.refund !== null) return right([]); // One refund per stake, ever.
      const collection = state.collection;
      if (!takesLateEvidence(state, now) || collection === null) return left(appealErrors.noRefund());
      return right([
        {
          type: 'StakeRefundRequested',
          data: {
            stakeId,
            paymentIntentId: collection.paymentIntentId,
            amountCents: collection.capturedCents,
            reason: 'late_evidence',
            evidenceRunId: command.evidenceRunId,
            idempotencyKey: stakeIdempotencyKey(stakeId, 'refund'),
            requestedAt: at(now),
          },
        },
      ]);
    }
    case 'RecordRefundSucceeded': {
      const refund = state.refund;
      const collection = state.collection;
      if (refund?.status === 'done') return right([]); // A repeated report of the same refund.
      if (refund === null || collection === null) return left(appealErrors.noRefundPending());
      if (command.refundedCents !== refund.amountCents) return left(stakeErrors.wrongAmount());
      const charityId = state.terms.charityId;
      const split = splitRefund(collection.capturedCents, 0, command.refundedCents, charityId !== null);
      return right([
        {
          type: 'StakeRefunded',
          data: {
            stakeId,
            paymentIntentId: collection.paymentIntentId,
            refundedCents: command.refundedCents,
            donationRefundCents: split.donationCents,
            feeRefundCents: split.feeCents,
            charityId,
            reason: 'a run of that week arrived after the capture and completes your goal.',
            idempotencyKey: refund.idempotencyKey,
            refundedAt: at(now),
          },
        },
      ]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
