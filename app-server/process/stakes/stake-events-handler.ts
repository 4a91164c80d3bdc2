import { sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeEvent } from '../../../domain/stake/events.ts';
import { stakeCommandFor, stakeIdForGoal } from '../../../domain/stake/from-goal.ts';
import { stakeIdempotencyKey } from '../../../domain/stake/policy.ts';
import type { StakeState } from '../../../domain/stake/state.ts';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import type { ProcessEventContext } from '../process-manager.ts';
import type { StakeHoldReleaseConfirmed } from './release-confirmed.ts';
import { isStakeEvent, loadStake } from './stake-stream.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { streams, isGoalStream, isStakeStream } from '../../../domain/shared/streams.ts';

type Store = EventStore<Transaction<object>>;

// The goal aggregate's own events (other streams have Goal… events too, e.g. the user's goal index).
const GOAL_EVENTS: ReadonlySet<string> = new Set<GoalEvent['type']>([
  'GoalCreated',
  'GoalActivated',
  'GoalProgressRecorded',
  'GoalCompleted',
  'GoalMissed',
  'GoalCanceled',
  'GoalDeleted',
]);

/**
 * The event half of the stake process, inside the subscription's transaction: goal events become stake commands
 * (open, settle, void), and stake events that ask for a provider call become rows of stake_actions; outcome events
 * close them. No provider is called here: a call cannot be rolled back with the batch.
 */
export async function handleStakeEvents(events: readonly RecordedEvent[], { tx, store, now }: ProcessEventContext) {
  const touched = new Set<string>();
  for (const recorded of events) {
    if (isGoalStream(recorded.streamId) && GOAL_EVENTS.has(recorded.type)) {
      const stakeId = await onGoalEvent(recorded, recorded as unknown as GoalEvent, tx, store, now);
      if (stakeId) touched.add(stakeId);
    } else if (recorded.type === 'StakeHoldReleaseConfirmed') {
      const d = (recorded as unknown as StakeHoldReleaseConfirmed).data;
      await closeAction(tx, d.idempotencyKey, d.result, now);
    } else if (isStakeEvent(recorded.type) && isStakeStream(recorded.streamId)) {
      const event = recorded as unknown as StakeEvent;
      await onStakeEvent(event, tx, now);
      touched.add(event.data.stakeId);
    }
  }
  for (const stakeId of touched) await rememberStake(stakeId, await loadStake(store, stakeId, tx), tx);
}

async function onGoalEvent(
  recorded: RecordedEvent,
  event: GoalEvent,
  tx: Transaction<object>,
  store: Store,
  now: Date,
): Promise<string | null> {
  const stakeId = stakeIdForGoal(event.data.goalId);
  const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  if (event.type === 'GoalActivated') {
    const state = await loadStake(store, stakeId, tx);
    if (state.status === 'pending') {
      await enqueue(tx, { key: stakeIdempotencyKey(stakeId, 'hold'), stakeId, kind: 'hold', now });
    }
    return state.status === 'none' ? null : stakeId;
  }
  const command = stakeCommandFor(event, instant);
  if (command === null) return null;
  if (command.type !== 'OpenStake' && (await loadStake(store, stakeId, tx)).status === 'none') return null;
  try {
    await executeCommand(
      store,
      stakeDecider,
      streams.stake(stakeId),
      command,
      processMetadata('stakes', now, recorded),
      {
        transaction: tx,
      },
    );
  } catch (error) {
    if (!(error instanceof DomainRefusal)) throw error;
    // The goals route opens the stake in the goal's own transaction; this is the crash-safe repeat.
    if (error.reason.code === 'stake_exists') return stakeId;
    // A miss reported before the week ended in the goal's zone: the clock settles it when it may (§4).
    if (error.reason.code === 'stake_too_early') {
      await rememberStake(stakeId, await loadStake(store, stakeId, tx), tx);
      await sql`UPDATE stake_process_stakes SET awaiting_settlement = true WHERE stake_id = ${stakeId}`.execute(tx);
      return null;
    }
    throw error;
  }
  return stakeId;
}

async function onStakeEvent(event: StakeEvent, tx: Transaction<object>, now: Date): Promise<void> {
  const d = event.data;
  switch (event.type) {
    case 'StakeReleased':
      if (event.data.paymentIntentId !== null) {
        const { idempotencyKey: key, paymentIntentId } = event.data;
        await enqueue(tx, { key, stakeId: d.stakeId, kind: 'release', paymentIntentId, now });
      }
      return;
    case 'StakeLateHoldReleased': {
      const { idempotencyKey: key, paymentIntentId } = event.data;
      return enqueue(tx, { key, stakeId: d.stakeId, kind: 'release', paymentIntentId, now });
    }
    case 'StakeCaptureRequested': {
      const { idempotencyKey: key, paymentIntentId } = event.data;
      return enqueue(tx, { key, stakeId: d.stakeId, kind: 'capture', paymentIntentId, now });
    }
    case 'StakeChargeRequested': {
      const { idempotencyKey: key, attempt } = event.data;
      return enqueue(tx, { key, stakeId: d.stakeId, kind: 'charge', attempt, now });
    }
    case 'StakeHoldPlaced':
      return closeAction(tx, event.data.idempotencyKey, 'held', now);
    case 'StakeHoldFailed':
      return closeAction(tx, event.data.idempotencyKey, `failed:${event.data.reason}`, now);
    case 'StakeChargeFailed':
      return closeAction(tx, stakeIdempotencyKey(d.stakeId, `charge-${event.data.attempt}`), event.data.failure, now);
    case 'StakeHoldExpired':
      // A capture that came too late is replaced by an off-session charge (its own action).
      return closeActions(tx, d.stakeId, ['capture'], 'expired', now);
    case 'StakeCollected':
      return closeActions(tx, d.stakeId, ['capture', 'charge'], `collected:${event.data.method}`, now);
    default:
      return;
  }
}

type NewAction = {
  key: string;
  stakeId: string;
  kind: 'hold' | 'release' | 'capture' | 'charge';
  paymentIntentId?: string;
  attempt?: number;
  now: Date;
};

async function enqueue(tx: Transaction<object>, a: NewAction): Promise<void> {
  await sql`
    INSERT INTO stake_actions (idempotency_key, stake_id, kind, payment_intent_id, attempt, requested_at, next_try_at)
    VALUES (${a.key}, ${a.stakeId}, ${a.kind}, ${a.paymentIntentId ?? null}, ${a.attempt ?? null},
            ${a.now.toISOString()}::timestamptz, ${a.now.toISOString()}::timestamptz)
    ON CONFLICT (idempotency_key) DO NOTHING`.execute(tx);
}

async function closeAction(tx: Transaction<object>, key: string, result: string, now: Date): Promise<void> {
  await sql`
    UPDATE stake_actions SET done_at = ${now.toISOString()}::timestamptz, result = ${result}
    WHERE idempotency_key = ${key} AND done_at IS NULL`.execute(tx);
}

async function closeActions(tx: Transaction<object>, stakeId: string, kinds: string[], result: string, now: Date) {
  for (const kind of kinds) {
    await sql`
      UPDATE stake_actions SET done_at = ${now.toISOString()}::timestamptz, result = ${result}
      WHERE stake_id = ${stakeId} AND kind = ${kind} AND done_at IS NULL`.execute(tx);
  }
}

/** Mirrors what the clock half needs of a stake's state. */
async function rememberStake(stakeId: string, state: StakeState, tx: Transaction<object>): Promise<void> {
  if (state.status === 'none') return;
  const hold = state.status === 'active' || state.status === 'capturing' ? state.hold : null;
  const nextAttemptAt = state.status === 'charge_failed' ? state.nextAttemptAt : null;
  await sql`
    INSERT INTO stake_process_stakes
      (stake_id, goal_id, user_id, status, hold_payment_intent_id, capture_before, next_attempt_at)
    VALUES (${stakeId}, ${state.terms.goalId}, ${state.terms.userId}, ${state.status},
            ${hold?.paymentIntentId ?? null}, ${hold?.captureBefore ?? null}::timestamptz, ${nextAttemptAt}::timestamptz)
    ON CONFLICT (stake_id) DO UPDATE SET
      status = EXCLUDED.status,
      hold_payment_intent_id = EXCLUDED.hold_payment_intent_id,
      capture_before = EXCLUDED.capture_before,
      next_attempt_at = EXCLUDED.next_attempt_at,
      awaiting_settlement = stake_process_stakes.awaiting_settlement AND EXCLUDED.status IN ('pending', 'active', 'unsecured')`.execute(
    tx,
  );
}
