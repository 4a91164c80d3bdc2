import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { isPaymentError } from '../../adapters/payments/payment-errors.ts';
import type { PaymentGateway, PaymentWebhookEvent } from '../../adapters/payments/payment-gateway.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeCommand } from '../../../domain/stake/commands.ts';
import type { StakeState } from '../../../domain/stake/state.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand, loadAggregate } from '../execute-command.ts';
import { processMetadata } from '../event-metadata.ts';
import { streams } from '../../../domain/shared/streams.ts';

export type WebhookDeps = {
  readonly db: Kysely<object>;
  readonly store: EventStore<Transaction<object>>;
  readonly gateway: PaymentGateway;
  readonly now: Date;
};

/**
 * What a verified event came to. `applied`: a stake moved forward; `no_change`: the stake had the step already (or
 * refused it). The others name nothing of ours: the PaymentIntent is unknown to the processor
 * (`unknown_payment_intent`), the event is about no PaymentIntent (`no_payment_intent`), the PaymentIntent belongs to
 * no stake (`no_stake`) or to a stake this log never recorded (`unknown_stake`). Each is answered 2xx: nothing to
 * retry, and a processor that gets errors retries for days and then disables the endpoint.
 */
export type WebhookOutcome =
  | 'applied'
  | 'no_change'
  | 'unknown_payment_intent'
  | 'no_payment_intent'
  | 'no_stake'
  | 'unknown_stake';

export type WebhookResult =
  | { readonly fresh: true; readonly outcome: WebhookOutcome; readonly stakeId: string | null }
  | { readonly fresh: false };

/**
 * A verified provider event: deduplicated by its id, then the PaymentIntent is re-fetched (the event's order and
 * payload are not trusted) and the stake it belongs to is moved forward if the PaymentIntent shows a step the stake
 * has not recorded yet. The stake decider refuses or ignores anything backwards, so a late or repeated event is
 * harmless. An event that names nothing of ours changes nothing and is recorded with its outcome in
 * payment_webhook_events. If handling fails (the processor did not answer), the event's record is taken back, so the
 * processor's retry is handled afresh instead of being taken for a duplicate.
 */
export async function applyPaymentWebhook(event: PaymentWebhookEvent, deps: WebhookDeps): Promise<WebhookResult> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO payment_webhook_events (id, type, payment_intent_id, received_at)
    VALUES (${event.id}, ${event.type}, ${event.paymentIntentId}, ${deps.now.toISOString()}::timestamptz)
    ON CONFLICT (id) DO NOTHING RETURNING id`.execute(deps.db);
  if (rows.length === 0) return { fresh: false };
  let handled: { outcome: WebhookOutcome; stakeId: string | null };
  try {
    handled = await handle(event, deps);
  } catch (error) {
    await sql`DELETE FROM payment_webhook_events WHERE id = ${event.id} AND outcome IS NULL`.execute(deps.db);
    throw error;
  }
  await sql`UPDATE payment_webhook_events SET outcome = ${handled.outcome} WHERE id = ${event.id}`.execute(deps.db);
  return { fresh: true, ...handled };
}

async function handle(
  event: PaymentWebhookEvent,
  deps: WebhookDeps,
): Promise<{ outcome: WebhookOutcome; stakeId: string | null }> {
  if (event.paymentIntentId === null) return { outcome: 'no_payment_intent', stakeId: null };
  let pi: Snapshot;
  try {
    pi = await deps.gateway.retrievePaymentIntent(event.paymentIntentId);
  } catch (error) {
    // Signed by the processor, about a PaymentIntent it does not know (another account's test data, a deleted
    // object, a forged id in a replayed body): there is nothing to move.
    if (isPaymentError(error, 'not_found', 'not_owned')) return { outcome: 'unknown_payment_intent', stakeId: null };
    throw error;
  }
  const stakeId = pi.metadata.stakeId;
  if (!stakeId) return { outcome: 'no_stake', stakeId: null };
  const { state } = await loadAggregate(deps.store, stakeDecider, streams.stake(stakeId));
  if (state.status === 'none') return { outcome: 'unknown_stake', stakeId };
  const command = forwardStep(state, pi, Temporal.Instant.fromEpochMilliseconds(deps.now.getTime()));
  if (command === null) return { outcome: 'no_change', stakeId };
  try {
    await executeCommand(
      deps.store,
      stakeDecider,
      streams.stake(stakeId),
      command,
      processMetadata('stakes', deps.now, `webhook-${event.id}`),
    );
  } catch (error) {
    if (!(error instanceof DomainRefusal)) throw error;
    return { outcome: 'no_change', stakeId };
  }
  return { outcome: 'applied', stakeId };
}

type Snapshot = Awaited<ReturnType<PaymentGateway['retrievePaymentIntent']>>;

/** The stake command the PaymentIntent's current state calls for, or null. Never a step back. */
function forwardStep(state: StakeState, pi: Snapshot, now: Temporal.Instant): StakeCommand | null {
  const action = pi.metadata.action;
  if (state.status === 'none') return null;
  if (action === 'hold') {
    if (state.status === 'pending' && pi.status === 'requires_capture' && pi.captureBefore !== null) {
      return {
        type: 'RecordHoldPlaced',
        paymentIntentId: pi.id,
        captureBefore: Temporal.Instant.from(pi.captureBefore),
        now,
      };
    }
    const ours = (state.status === 'active' || state.status === 'capturing') && state.hold.paymentIntentId === pi.id;
    if (!ours) return null;
    if (state.status === 'capturing' && pi.status === 'succeeded') {
      return { type: 'RecordCaptureSucceeded', capturedCents: pi.amountCapturedCents, now };
    }
    // The hold lapsed (or was canceled at the processor): a miss will be charged off-session instead.
    if (pi.status === 'canceled') return { type: 'RecordHoldExpired', now };
    return null;
  }
  if (action === 'charge' && pi.status === 'succeeded' && state.status === 'charging') {
    const attempt = Number(pi.metadata.attempt);
    if (attempt !== state.attempt) return null;
    return {
      type: 'RecordChargeSucceeded',
      attempt,
      paymentIntentId: pi.id,
      capturedCents: pi.amountCapturedCents,
      now,
    };
  }
  return null;
}
