import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { isPaymentError } from '../../adapters/payments/payment-errors.ts';
import type { PaymentGateway, PaymentIntentSnapshot } from '../../adapters/payments/payment-gateway.ts';
import type { StakeCommand } from '../../../domain/stake/commands.ts';
import { holdUnusableFrom } from '../../../domain/stake/policy.ts';
import type { StakeState } from '../../../domain/stake/state.ts';
import type { ActionPage } from './action-page.ts';
import type { StakeActionRow } from './stake-action-row.ts';

/** Provider keys may be forgotten after this long: from then on the PaymentIntent is re-fetched before acting. */
const KEY_MEMORY_MS = 24 * 3_600_000;

export type { StakeFaults } from './action-page.ts';

export type ActionDeps = {
  readonly db: Kysely<object>;
  readonly gateway: PaymentGateway;
  readonly now: Date;
  /** The action's page: its stakes as read (with the page's outcomes so far), where its outcome and row end go. */
  readonly page: ActionPage;
};

/**
 * Carries out one stake action: call the provider with the action's deterministic key, then record the outcome on
 * the stake stream (with its page, action-page.ts: expected version checked, one by one again on a lost race). Safe
 * to repeat at any point: the stake's state says whether the action is still wanted, the key replays the provider's
 * first answer, and an action that may already have reached the provider long ago is decided from the re-fetched
 * PaymentIntent instead.
 */
export async function performAction(action: StakeActionRow, deps: ActionDeps): Promise<void> {
  const state = await deps.page.stake(action.stake_id);
  if (state.status === 'none') return deps.page.done(action, 'no_stake');
  switch (action.kind) {
    case 'hold':
      return hold(action, state, deps);
    case 'capture':
      return capture(action, state, deps);
    case 'charge':
      return charge(action, state, deps);
    case 'release':
      return release(action, deps);
    case 'refund':
      return refund(action, state, deps);
    default: {
      const unreachable: never = action.kind;
      return unreachable;
    }
  }
}

const instant = (d: Date) => Temporal.Instant.fromEpochMilliseconds(d.getTime());
const stale = (action: StakeActionRow, now: Date) =>
  now.getTime() - (action.attempted_at ?? action.requested_at).getTime() >= KEY_MEMORY_MS;

async function hold(action: StakeActionRow, state: Exclude<StakeState, { status: 'none' }>, deps: ActionDeps) {
  // Never asked of the provider and no longer wanted (completed or canceled first): nothing to undo.
  if (state.status !== 'pending' && action.attempted_at === null) {
    return deps.page.done(action, 'not_needed');
  }
  const customerId = deps.page.customerId(state.terms.userId);
  if (customerId === null) {
    return outcome(action, deps, { type: 'RecordHoldFailed', reason: 'no_customer', now: instant(deps.now) });
  }
  await deps.page.attempt(action);
  const result = await deps.gateway.placeHold({
    customerId,
    paymentMethodId: state.terms.paymentMethodId,
    amountCents: state.terms.amountCents,
    idempotencyKey: action.idempotency_key,
    metadata: { stakeId: state.terms.stakeId, goalId: state.terms.goalId, action: 'hold' },
  });
  const now = instant(deps.now);
  if (result.status === 'held') {
    const captureBefore = Temporal.Instant.from(result.captureBefore);
    return outcome(action, deps, {
      type: 'RecordHoldPlaced',
      paymentIntentId: result.paymentIntentId,
      captureBefore,
      now,
    });
  }
  const reason = result.status === 'declined' ? result.declineCode : 'authentication_required';
  return outcome(action, deps, { type: 'RecordHoldFailed', reason, now });
}

async function capture(action: StakeActionRow, state: Exclude<StakeState, { status: 'none' }>, deps: ActionDeps) {
  if (state.status !== 'capturing') return deps.page.done(action, 'superseded');
  const now = instant(deps.now);
  // Asked before (a crash, an error) or long ago: the PaymentIntent says what really happened.
  if (action.attempted_at !== null || stale(action, deps.now)) {
    const pi = await deps.gateway.retrievePaymentIntent(state.hold.paymentIntentId);
    if (pi.status === 'succeeded') return captured(action, deps, pi.amountCapturedCents);
    if (pi.status === 'canceled') return outcome(action, deps, { type: 'RecordHoldExpired', now });
  }
  // Never capture at or after the deadline (minus the margin): charge off-session instead.
  if (Temporal.Instant.compare(now, holdUnusableFrom(Temporal.Instant.from(state.hold.captureBefore))) >= 0) {
    return outcome(action, deps, { type: 'RecordHoldExpired', now });
  }
  await deps.page.attempt(action);
  const result = await deps.gateway.captureHold({
    paymentIntentId: state.hold.paymentIntentId,
    amountCents: state.terms.amountCents,
    idempotencyKey: action.idempotency_key,
  });
  if (result.status === 'expired') return outcome(action, deps, { type: 'RecordHoldExpired', now });
  return captured(action, deps, result.amountCapturedCents);
}

function captured(action: StakeActionRow, deps: ActionDeps, capturedCents: number) {
  return outcome(action, deps, { type: 'RecordCaptureSucceeded', capturedCents, now: instant(deps.now) });
}

async function charge(action: StakeActionRow, state: Exclude<StakeState, { status: 'none' }>, deps: ActionDeps) {
  if (state.status !== 'charging' || state.attempt !== action.attempt) {
    return deps.page.done(action, 'superseded');
  }
  // The provider may have charged and forgotten the key: charging again could take the money twice.
  if (action.attempted_at !== null && stale(action, deps.now)) {
    return deps.page.review(action, 'charge outcome unknown after the key expired');
  }
  const customerId = deps.page.customerId(state.terms.userId);
  const now = instant(deps.now);
  const attempt = state.attempt;
  if (customerId === null)
    return outcome(action, deps, { type: 'RecordChargeFailed', attempt, failure: 'declined', now });
  await deps.page.attempt(action);
  const result = await deps.gateway.chargeOffSession({
    customerId,
    paymentMethodId: state.terms.paymentMethodId,
    amountCents: state.terms.amountCents,
    idempotencyKey: action.idempotency_key,
    metadata: { stakeId: state.terms.stakeId, goalId: state.terms.goalId, action: 'charge', attempt: String(attempt) },
  });
  if (result.status === 'succeeded') {
    const { paymentIntentId, amountCents: capturedCents } = result;
    return outcome(action, deps, { type: 'RecordChargeSucceeded', attempt, paymentIntentId, capturedCents, now });
  }
  const failure = result.status === 'declined' ? 'declined' : 'authentication_required';
  const declineCode = result.status === 'declined' ? result.declineCode : null;
  return outcome(action, deps, { type: 'RecordChargeFailed', attempt, failure, declineCode, now });
}

async function release(action: StakeActionRow, deps: ActionDeps) {
  const paymentIntentId = action.payment_intent_id;
  if (paymentIntentId === null) return deps.page.done(action, 'no_hold');
  let answer: { result: 'released' | 'already_captured'; amount: number } | null = null;
  if (action.attempted_at !== null || stale(action, deps.now))
    answer = settledRelease(await deps.gateway.retrievePaymentIntent(paymentIntentId));
  if (answer === null) {
    await deps.page.attempt(action);
    const result = await deps.gateway.releaseHold({ paymentIntentId, idempotencyKey: action.idempotency_key });
    answer =
      result.status === 'released'
        ? { result: 'released', amount: 0 }
        : { result: 'already_captured', amount: result.amountCapturedCents };
  }
  const data = {
    stakeId: action.stake_id,
    paymentIntentId,
    idempotencyKey: action.idempotency_key,
    result: answer.result,
    amountCapturedCents: answer.amount,
    confirmedAt: deps.now.toISOString(),
  };
  return deps.page.released(action, { type: 'StakeHoldReleaseConfirmed', data });
}

async function refund(action: StakeActionRow, state: Exclude<StakeState, { status: 'none' }>, deps: ActionDeps) {
  const asked = state.refund;
  if (asked?.status !== 'requested' || asked.idempotencyKey !== action.idempotency_key) {
    return deps.page.done(action, asked?.status === 'done' ? 'refunded' : 'not_needed');
  }
  const now = instant(deps.now);
  const paymentIntentId = action.payment_intent_id ?? state.collection?.paymentIntentId;
  if (!paymentIntentId) return deps.page.review(action, 'refund without a payment to refund');
  await deps.page.attempt(action);
  try {
    const result = await deps.gateway.refundPayment({
      paymentIntentId,
      amountCents: asked.amountCents,
      idempotencyKey: action.idempotency_key,
      metadata: { stakeId: state.terms.stakeId, goalId: state.terms.goalId, action: 'refund' },
    });
    if (result.status === 'failed') {
      return deps.page.review(action, `the provider refused the refund: ${result.reason}`);
    }
  } catch (error) {
    // Refunded already (a repeat after the provider forgot our key): the money is back, as asked.
    if (!isPaymentError(error) || error.providerCode !== 'charge_already_refunded') throw error;
  }
  return outcome(action, deps, { type: 'RecordRefundSucceeded', refundedCents: asked.amountCents, now });
}

function settledRelease(pi: PaymentIntentSnapshot): { result: 'released' | 'already_captured'; amount: number } | null {
  if (pi.status === 'canceled') return { result: 'released', amount: 0 };
  if (pi.status === 'succeeded') return { result: 'already_captured', amount: pi.amountCapturedCents };
  return null;
}

/** Records the provider's answer on the stake (with the page). */
function outcome(action: StakeActionRow, deps: ActionDeps, command: StakeCommand): Promise<void> {
  return deps.page.outcome(action, command);
}

/** Whether an error is the provider's transient trouble (retry later with the same key). */
export function isProviderTrouble(error: unknown): boolean {
  return isPaymentError(error);
}
