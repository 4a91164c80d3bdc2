import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isStakeOption, splitCapture } from '../shared/money.ts';
import { maySettle } from '../shared/settlement.ts';
import { acceptAppeal, appealUndecided, decideAppeal } from './appeal-decide.ts';
import type { OpenStake, StakeAppealCommand, StakeCommand } from './commands.ts';
import { type CollectionOutcome, StakeEvent } from './events.ts';
import { appealErrors, stakeErrors } from './messages.ts';
import { holdUnusableFrom, nextChargeAttemptAt, stakeIdempotencyKey } from './policy.ts';
import { evolveStake, initialStakeState, isFinal, type OpenStakeState, type StakeState } from './state.ts';
import { instantIso } from '../shared/instant.ts';

type Decision = Either<DomainError, readonly StakeEvent[]>;

/*
 * HOLD-EXPIRY STRATEGY (decided with the money engineer; FACTS "Payments").
 *
 * 1. A stake is opened with its goal but touches no money while the goal is upcoming. The hold (manual-capture
 *    PaymentIntent) is placed when the goal becomes ACTIVE, and the provider's `capture_before` is recorded.
 * 2. Completing the goal releases the hold at once (StakeReleased → succeeded). A completed goal is never charged.
 * 3. A hold is never captured at or after `capture_before` minus a one-hour margin (policy.ts). A merchant-initiated
 *    Visa hold lives about 4 days 18 hours, so a Monday hold usually lapses before the next Monday's settlement;
 *    from that moment the stake records StakeHoldExpired and stays on as `unsecured`.
 * 4. A miss (or a cancel of an active goal) is collected by capturing the hold while it is usable, otherwise by an
 *    off-session charge on the saved card. That charge can be declined or need authentication: each attempt is
 *    recorded, retried at most MAX_CHARGE_ATTEMPTS times on a fixed schedule (1 day, then 3 days), then written off.
 * 5. Every provider call carries a key derived from stake id + action (`stake-<id>-hold`, `-release`, `-capture`,
 *    `-charge-<n>`), so a process manager that crashed mid-call replays it without a double effect.
 * 6. Each stake reaches a final state (succeeded, refunded, lost, forfeited, uncollectible) at most once. Commands
 *    on a final stake are acknowledged with no events (duplicate and out-of-order provider webhooks are normal),
 *    except a hold reported after the end, which is released so no money stays blocked.
 */

const at = (now: Temporal.Instant) => instantIso(now);

function open(command: OpenStake, state: StakeState): Decision {
  if (state.status !== 'none') return left(stakeErrors.exists());
  if (!isStakeOption(command.amountCents) || command.amountCents === 0) return left(stakeErrors.invalidAmount());
  const { type: _type, now, ...terms } = command;
  return right([{ type: 'StakeOpened', data: { ...terms, openedAt: at(now) } }]);
}

/** Starts collecting: capture while the hold is usable, else record its expiry and charge off-session. */
function collect(state: OpenStakeState, outcome: CollectionOutcome, now: Temporal.Instant): Decision {
  const { stakeId, amountCents } = state.terms;
  if (state.status === 'active') {
    const captureBefore = Temporal.Instant.from(state.hold.captureBefore);
    if (Temporal.Instant.compare(now, holdUnusableFrom(captureBefore)) < 0) {
      return right([
        {
          type: 'StakeCaptureRequested',
          data: {
            stakeId,
            outcome,
            paymentIntentId: state.hold.paymentIntentId,
            amountCents,
            captureBefore: state.hold.captureBefore,
            idempotencyKey: stakeIdempotencyKey(stakeId, 'capture'),
            requestedAt: at(now),
          },
        },
      ]);
    }
    return right([expired(state, state.hold, now), chargeRequest(state, outcome, 1, now)]);
  }
  return right([chargeRequest(state, outcome, 1, now)]);
}

function expired(
  state: OpenStakeState,
  hold: { paymentIntentId: string; captureBefore: string },
  now: Temporal.Instant,
) {
  return {
    type: 'StakeHoldExpired',
    data: { stakeId: state.terms.stakeId, ...hold, expiredAt: at(now) },
  } as const satisfies StakeEvent;
}

function chargeRequest(state: OpenStakeState, outcome: CollectionOutcome, attempt: number, now: Temporal.Instant) {
  const { stakeId, amountCents, paymentMethodId } = state.terms;
  return {
    type: 'StakeChargeRequested',
    data: {
      stakeId,
      outcome,
      attempt,
      amountCents,
      paymentMethodId,
      idempotencyKey: stakeIdempotencyKey(stakeId, `charge-${attempt}`),
      requestedAt: at(now),
    },
  } as const satisfies StakeEvent;
}

function collected(
  state: OpenStakeState,
  outcome: CollectionOutcome,
  method: 'capture' | 'charge',
  paymentIntentId: string,
  capturedCents: number,
  now: Temporal.Instant,
): Decision {
  // We only ever ask for the full stake; a different amount means the provider record is not ours to split.
  if (capturedCents !== state.terms.amountCents) return left(stakeErrors.wrongAmount());
  const { donationCents, feeCents } = splitCapture(capturedCents, state.terms.charityId !== null);
  const { stakeId, charityId } = state.terms;
  return right([
    {
      type: 'StakeCollected',
      data: {
        stakeId,
        outcome,
        method,
        paymentIntentId,
        capturedCents,
        donationCents,
        feeCents,
        charityId,
        collectedAt: at(now),
      },
    },
  ]);
}

function release(state: OpenStakeState, outcome: 'succeeded' | 'refunded', now: Temporal.Instant): Decision {
  switch (state.status) {
    case 'pending':
    case 'active':
    case 'unsecured': {
      const paymentIntentId = state.status === 'active' ? state.hold.paymentIntentId : null;
      const { stakeId } = state.terms;
      return right([
        {
          type: 'StakeReleased',
          data: {
            stakeId,
            outcome,
            paymentIntentId,
            idempotencyKey: stakeIdempotencyKey(stakeId, 'release'),
            releasedAt: at(now),
          },
        },
      ]);
    }
    default:
      return left(stakeErrors.beingCollected());
  }
}

const APPEAL_COMMANDS: ReadonlySet<StakeCommand['type']> = new Set<StakeAppealCommand['type']>([
  'AppealStake',
  'VouchForStake',
  'ReferAppeal',
  'AcceptAppeal',
  'RefuseAppeal',
  'RefundForLateEvidence',
  'RecordRefundSucceeded',
]);

const isAppealCommand = (command: StakeCommand): command is StakeAppealCommand => APPEAL_COMMANDS.has(command.type);

/** Decides for a stake that exists and is not final. */
function decideOpen(command: Exclude<StakeCommand, OpenStake | StakeAppealCommand>, state: OpenStakeState): Decision {
  const { stakeId } = state.terms;
  switch (command.type) {
    case 'RecordHoldPlaced': {
      if (state.knownHold === command.paymentIntentId) return right([]);
      if (state.status !== 'pending') return lateHold(state, command.paymentIntentId, command.now);
      if (Temporal.Instant.compare(command.captureBefore, command.now) <= 0)
        return left(stakeErrors.holdAlreadyExpired());
      return right([
        {
          type: 'StakeHoldPlaced',
          data: {
            stakeId,
            paymentIntentId: command.paymentIntentId,
            captureBefore: instantIso(command.captureBefore),
            idempotencyKey: stakeIdempotencyKey(stakeId, 'hold'),
            placedAt: at(command.now),
          },
        },
      ]);
    }
    case 'RecordHoldFailed':
      if (state.status !== 'pending') return right([]); // A stale report: the stake has moved on.
      return right([
        {
          type: 'StakeHoldFailed',
          data: {
            stakeId,
            reason: command.reason,
            idempotencyKey: stakeIdempotencyKey(stakeId, 'hold'),
            failedAt: at(command.now),
          },
        },
      ]);
    case 'RecordHoldExpired': {
      if (state.status === 'capturing') {
        // The capture did not make it before the deadline: fall back to charging the card off-session.
        return right([expired(state, state.hold, command.now), chargeRequest(state, state.outcome, 1, command.now)]);
      }
      if (state.status !== 'active') return right([]);
      const unusable = holdUnusableFrom(Temporal.Instant.from(state.hold.captureBefore));
      if (Temporal.Instant.compare(command.now, unusable) < 0) return left(stakeErrors.holdStillValid());
      return right([expired(state, state.hold, command.now)]);
    }
    case 'SettleCompleted':
      return release(state, 'succeeded', command.now);
    case 'VoidStake':
      return release(state, 'refunded', command.now);
    case 'SettleMissed':
    case 'SettleCanceled': {
      if (state.status === 'capturing' || state.status === 'charging' || state.status === 'charge_failed') {
        return right([]); // Already being collected: a repeated settlement run changes nothing.
      }
      if (command.type === 'SettleMissed' && !maySettle(state.terms.weekStart, state.terms.timeZone, command.now)) {
        return left(stakeErrors.tooEarly());
      }
      if (command.type === 'SettleMissed' && state.appeal !== null && appealUndecided(state)) {
        // Settlement waits for the decision, but never past its deadline: undecided then, it goes to the runner.
        if (Temporal.Instant.compare(command.now, Temporal.Instant.from(state.appeal.decideBy)) < 0) {
          return left(appealErrors.pending());
        }
        return acceptAppeal(state, 'deadline', '', command.now);
      }
      return collect(state, command.type === 'SettleMissed' ? 'lost' : 'forfeited', command.now);
    }
    case 'RecordCaptureSucceeded':
      if (state.status !== 'capturing') return left(stakeErrors.noCapturePending());
      return collected(state, state.outcome, 'capture', state.hold.paymentIntentId, command.capturedCents, command.now);
    case 'RecordChargeSucceeded':
      if (state.status !== 'charging' || state.attempt !== command.attempt) return left(stakeErrors.noChargePending());
      return collected(state, state.outcome, 'charge', command.paymentIntentId, command.capturedCents, command.now);
    case 'RecordChargeFailed': {
      if (state.status !== 'charging' || state.attempt !== command.attempt) return right([]); // Duplicate report.
      const next = nextChargeAttemptAt(command.attempt, command.now);
      const failed: StakeEvent = {
        type: 'StakeChargeFailed',
        data: {
          stakeId,
          attempt: command.attempt,
          failure: command.failure,
          ...(command.declineCode ? { declineCode: command.declineCode } : {}),
          nextAttemptAt: next === null ? null : instantIso(next),
          failedAt: at(command.now),
        },
      };
      if (next !== null) return right([failed]);
      return right([
        failed,
        { type: 'StakeWrittenOff', data: { stakeId, attempts: command.attempt, writtenOffAt: at(command.now) } },
      ]);
    }
    case 'RetryCharge':
      if (state.status === 'charging') return right([]);
      if (state.status !== 'charge_failed') return left(stakeErrors.noChargePending());
      if (Temporal.Instant.compare(command.now, Temporal.Instant.from(state.nextAttemptAt)) < 0) {
        return left(stakeErrors.retryNotDue());
      }
      return right([chargeRequest(state, state.outcome, state.attempt + 1, command.now)]);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** A hold the stake did not ask for (or no longer needs) is released and changes nothing else. */
function lateHold(state: OpenStakeState, paymentIntentId: string, now: Temporal.Instant): Decision {
  const { stakeId } = state.terms;
  return right([
    {
      type: 'StakeLateHoldReleased',
      data: {
        stakeId,
        paymentIntentId,
        idempotencyKey: stakeIdempotencyKey(stakeId, `release-${paymentIntentId}`),
        releasedAt: at(now),
      },
    },
  ]);
}

/** Decides a stake command (§3, §4, §9 and the hold-expiry strategy above). */
export function decideStake(command: StakeCommand, state: StakeState): Decision {
  if (command.type === 'OpenStake') return open(command, state);
  if (state.status === 'none') return left(stakeErrors.notFound());
  // Appeals and refunds have their own rules, final stakes included (a refund comes after the collection).
  if (isAppealCommand(command)) return decideAppeal(command, state);
  if (isFinal(state.status)) {
    if (command.type === 'RecordHoldPlaced' && state.knownHold !== command.paymentIntentId) {
      return lateHold(state, command.paymentIntentId, command.now);
    }
    return right([]);
  }
  return decideOpen(command, state);
}

/** The stake aggregate, stream `stake-<id>`. */
export const stakeDecider = defineDecider<StakeCommand, StakeEvent, StakeState>({
  initialState: initialStakeState,
  evolve: evolveStake,
  decide: decideStake,
  eventSchema: StakeEvent,
});
