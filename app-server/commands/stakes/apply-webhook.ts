import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
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
 * A verified provider event: deduplicated by its id, then the PaymentIntent is re-fetched (the event's order and
 * payload are not trusted) and the stake it belongs to is moved forward if the PaymentIntent shows a step the stake
 * has not recorded yet. The stake decider refuses or ignores anything backwards, so a late or repeated event is
 * harmless. Returns whether the event was new.
 */
export async function applyPaymentWebhook(event: PaymentWebhookEvent, deps: WebhookDeps): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO payment_webhook_events (id, type, payment_intent_id, received_at)
    VALUES (${event.id}, ${event.type}, ${event.paymentIntentId}, ${deps.now.toISOString()}::timestamptz)
    ON CONFLICT (id) DO NOTHING RETURNING id`.execute(deps.db);
  if (rows.length === 0 || event.paymentIntentId === null) return rows.length > 0;
  const pi = await deps.gateway.retrievePaymentIntent(event.paymentIntentId);
  const stakeId = pi.metadata.stakeId;
  if (!stakeId) return true;
  const { state } = await loadAggregate(deps.store, stakeDecider, streams.stake(stakeId));
  const command = forwardStep(state, pi, Temporal.Instant.fromEpochMilliseconds(deps.now.getTime()));
  if (command === null) return true;
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
  }
  return true;
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
