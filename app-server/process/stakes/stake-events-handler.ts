import { sqlRecords } from '../../../projections/sql-records.ts';
import { sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import { StakeEvent } from '../../../domain/stake/events.ts';
import { eventTypesOf } from '../../../domain/shared/event-schema.ts';
import { stakeCommandFor, stakeIdForGoal } from '../../../domain/stake/from-goal.ts';
import { stakeIdempotencyKey } from '../../../domain/stake/policy.ts';
import type { StakeState } from '../../../domain/stake/state.ts';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import type { ProcessEventContext } from '../process-manager.ts';
import type { StakeHoldReleaseConfirmed } from './release-confirmed.ts';
import { isStakeEvent } from './stake-stream.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import type { StakeCommand } from '../../../domain/stake/commands.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { streams, isGoalStream, isStakeStream } from '../../../domain/shared/streams.ts';
import { ActionRowWrites } from './action-row-writes.ts';

// The goal aggregate's own events (other streams have Goal… events too, e.g. the user's goal index).
const GOAL_EVENTS = [
  'GoalCreated',
  'GoalActivated',
  'GoalProgressRecorded',
  'GoalCompleted',
  'GoalMissed',
  'GoalCanceled',
  'GoalDeleted',
] as const satisfies readonly GoalEvent['type'][];
const GOAL_EVENT_SET: ReadonlySet<string> = new Set(GOAL_EVENTS);

/** What handleStakeEvents reads: the goal's events above, release outcomes, and the stake stream's every event. */
export const STAKE_PROCESS_EVENT_TYPES = [...GOAL_EVENTS, 'StakeHoldReleaseConfirmed', ...eventTypesOf(StakeEvent)];

/**
 * The event half of the stake process, inside the subscription's transaction: goal events become stake commands
 * (open, settle, void), and stake events that ask for a provider call become rows of stake_actions; outcome events
 * close them. No provider is called here: a call cannot be rolled back with the batch.
 */
export async function handleStakeEvents(events: readonly RecordedEvent[], { tx, store, now }: ProcessEventContext) {
  // Every stake the batch speaks of, read in one query; commands are decided in memory and appended in one
  // statement at the end, inside the batch's transaction (so with its stake_actions rows, or not at all).
  const stakes: Stakes = new DecisionBatch(store, stakeDecider, tx, { rememberStates: true });
  await stakes.load(events.map(stakeStreamOf).filter((id): id is string => id !== null));
  // The queue's rows in log order, sent as a few statements at the end (action-row-writes.ts).
  const rows = new ActionRowWrites();
  const touched = new Set<string>();
  for (const recorded of events) {
    if (isGoalStream(recorded.streamId) && GOAL_EVENT_SET.has(recorded.type)) {
      const stakeId = await onGoalEvent(recorded, recorded as unknown as GoalEvent, tx, stakes, rows, now);
      if (stakeId) touched.add(stakeId);
    } else if (recorded.type === 'StakeHoldReleaseConfirmed') {
      const d = (recorded as unknown as StakeHoldReleaseConfirmed).data;
      rows.close(d.stakeId, d.idempotencyKey, d.result);
    } else if (isStakeEvent(recorded.type) && isStakeStream(recorded.streamId)) {
      const event = recorded as unknown as StakeEvent;
      onStakeEvent(event, rows);
      touched.add(event.data.stakeId);
    }
  }
  await rows.flush(tx, now);
  await stakes.flush();
  const states = await Promise.all(
    [...touched].map(async (id) => [id, await stakes.state(streams.stake(id))] as const),
  );
  await rememberStakes(states, tx);
}

type Stakes = DecisionBatch<StakeCommand, StakeEvent, StakeState>;

/** The stake stream an event of the batch may touch, or null. */
function stakeStreamOf(recorded: RecordedEvent): string | null {
  if (isGoalStream(recorded.streamId) && GOAL_EVENT_SET.has(recorded.type)) {
    return streams.stake(stakeIdForGoal((recorded.data as { goalId: string }).goalId));
  }
  if (isStakeEvent(recorded.type) && isStakeStream(recorded.streamId)) {
    return streams.stake((recorded.data as { stakeId: string }).stakeId);
  }
  return null;
}

async function onGoalEvent(
  recorded: RecordedEvent,
  event: GoalEvent,
  tx: Transaction<object>,
  stakes: Stakes,
  rows: ActionRowWrites,
  now: Date,
): Promise<string | null> {
  const stakeId = stakeIdForGoal(event.data.goalId);
  const streamId = streams.stake(stakeId);
  const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  if (event.type === 'GoalActivated') {
    const state = await stakes.state(streamId);
    if (state.status === 'pending') {
      rows.insert({ key: stakeIdempotencyKey(stakeId, 'hold'), stakeId, kind: 'hold' });
    }
    return state.status === 'none' ? null : stakeId;
  }
  const command = stakeCommandFor(event, instant);
  if (command === null) return null;
  if (command.type !== 'OpenStake' && (await stakes.state(streamId)).status === 'none') return null;
  const decided = await stakes.decide(streamId, command, processMetadata('stakes', now, recorded));
  if (decided.ok) return stakeId;
  const reason = decided.refusal;
  // The goals route opens the stake in the goal's own transaction; this is the crash-safe repeat.
  if (reason.code === 'stake_exists') return stakeId;
  // A miss reported before the week ended in the goal's zone: the clock settles it when it may (§4).
  // A miss whose appeal is undecided waits for the decision (or its deadline): the clock asks again.
  if (reason.code === 'stake_too_early' || reason.code === 'stake_appeal_pending') {
    await rememberStakes([[stakeId, await stakes.state(streamId)]], tx);
    await sql`UPDATE stake_process_stakes SET awaiting_settlement = true WHERE stake_id = ${stakeId}`.execute(tx);
    return null;
  }
  throw new DomainRefusal(reason);
}

function onStakeEvent(event: StakeEvent, rows: ActionRowWrites): void {
  const d = event.data;
  switch (event.type) {
    case 'StakeReleased':
      if (event.data.paymentIntentId !== null) {
        const { idempotencyKey: key, paymentIntentId } = event.data;
        rows.insert({ key, stakeId: d.stakeId, kind: 'release', paymentIntentId });
      }
      return;
    case 'StakeLateHoldReleased': {
      const { idempotencyKey: key, paymentIntentId } = event.data;
      rows.insert({ key, stakeId: d.stakeId, kind: 'release', paymentIntentId });
      return;
    }
    case 'StakeCaptureRequested': {
      const { idempotencyKey: key, paymentIntentId } = event.data;
      rows.insert({ key, stakeId: d.stakeId, kind: 'capture', paymentIntentId });
      return;
    }
    case 'StakeChargeRequested': {
      const { idempotencyKey: key, attempt } = event.data;
      rows.insert({ key, stakeId: d.stakeId, kind: 'charge', attempt });
      return;
    }
    case 'StakeRefundRequested': {
      const { idempotencyKey: key, paymentIntentId } = event.data;
      rows.insert({ key, stakeId: d.stakeId, kind: 'refund', paymentIntentId });
      return;
    }
    case 'StakeRefunded':
      rows.close(d.stakeId, event.data.idempotencyKey, 'refunded');
      return;
    case 'StakeHoldPlaced':
      rows.close(d.stakeId, event.data.idempotencyKey, 'held');
      return;
    case 'StakeHoldFailed':
      rows.close(d.stakeId, event.data.idempotencyKey, `failed:${event.data.reason}`);
      return;
    case 'StakeChargeFailed':
      rows.close(d.stakeId, stakeIdempotencyKey(d.stakeId, `charge-${event.data.attempt}`), event.data.failure);
      return;
    case 'StakeHoldExpired':
      // A capture that came too late is replaced by an off-session charge (its own action).
      rows.closeKinds(d.stakeId, ['capture'], 'expired');
      return;
    case 'StakeCollected':
      rows.closeKinds(d.stakeId, ['capture', 'charge'], `collected:${event.data.method}`);
      return;
    default:
      return;
  }
}

/** Mirrors what the clock half needs of the stakes' states, in one statement. */
async function rememberStakes(
  states: readonly (readonly [string, StakeState])[],
  tx: Transaction<object>,
): Promise<void> {
  const rows = states.flatMap(([stakeId, state]) => {
    if (state.status === 'none') return [];
    const hold = state.status === 'active' || state.status === 'capturing' ? state.hold : null;
    return [
      {
        stake_id: stakeId,
        goal_id: state.terms.goalId,
        user_id: state.terms.userId,
        status: state.status,
        hold_payment_intent_id: hold?.paymentIntentId ?? null,
        capture_before: hold?.captureBefore ?? null,
        next_attempt_at: state.status === 'charge_failed' ? state.nextAttemptAt : null,
      },
    ];
  });
  if (rows.length === 0) return;
  await sql`
    INSERT INTO stake_process_stakes
      (stake_id, goal_id, user_id, status, hold_payment_intent_id, capture_before, next_attempt_at)
    SELECT r.stake_id, r.goal_id, r.user_id, r.status, r.hold_payment_intent_id, r.capture_before::timestamptz,
           r.next_attempt_at::timestamptz
    FROM ${sqlRecords(rows, 'stake_id text, goal_id text, user_id text, status text, hold_payment_intent_id text, capture_before text, next_attempt_at text')} AS r
    ON CONFLICT (stake_id) DO UPDATE SET
      status = EXCLUDED.status,
      hold_payment_intent_id = EXCLUDED.hold_payment_intent_id,
      capture_before = EXCLUDED.capture_before,
      next_attempt_at = EXCLUDED.next_attempt_at,
      awaiting_settlement = stake_process_stakes.awaiting_settlement AND EXCLUDED.status IN ('pending', 'active', 'unsecured')`.execute(
    tx,
  );
}
