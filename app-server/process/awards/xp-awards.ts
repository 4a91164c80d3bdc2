import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { BadgeEvent } from '../../../domain/badge/events.ts';
import { badgeDefinition } from '../../../domain/gamification/badge-definitions.ts';
import type { WeekResult } from '../../../domain/gamification/streaks.ts';
import type { GoalDetails, GoalEvent } from '../../../domain/goal/events.ts';
import { goalDecider } from '../../../domain/goal/decide.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import { userGoalsDecider } from '../../../domain/goal/user-goals.ts';
import { countedDistanceKm } from '../../../domain/run/counting.ts';
import type { RunEvent } from '../../../domain/run/events.ts';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { surgeDecider } from '../../../domain/surge/decide.ts';
import type { SurgeScheduleState } from '../../../domain/surge/state.ts';
import type { XpLedgerCommand } from '../../../domain/xp/commands.ts';
import { runXpCommand } from '../../../domain/xp/run-xp-command.ts';
import { payIntoLedgers } from './xp-ledger-load.ts';
import { inParallel, TICK_CONCURRENCY } from '../in-parallel.ts';
import type { ProcessManager } from '../process-manager.ts';
import { foldStream, timeZonesOf } from './award-context.ts';
import { foldStreams } from '../fold-streams.ts';
import { DEFAULT_TIME_ZONE } from '../../../domain/shared/time-zone.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { streams } from '../../../domain/shared/streams.ts';

const NAME = 'xp-awards';

type Store = EventStore<Transaction<object>>;

/**
 * What the batch's commands read, for the whole batch at once: each settled goal's details (its owner and week) and
 * each owner's goal index (their paused weeks), each paid runner's account (their time zone): every goal stream in one
 * query, every index in one more, every account in one more. This process writes none of them, so reading them at the
 * batch's start inside its transaction reads what reading each one when its event comes up would.
 */
type SettleReads = {
  goalOf(goalId: string): GoalDetails | null;
  pausedWeeks(userId: string): string[];
  /** The runner's time zone (their account stream), for each run the batch pays. */
  timeZoneOf(userId: string): string;
};

async function settleReads(
  store: Store,
  tx: Transaction<object>,
  events: readonly RecordedEvent[],
): Promise<SettleReads> {
  const goalIds = new Set<string>();
  for (const event of events) if (SETTLING.has(event.type)) goalIds.add((event.data as { goalId: string }).goalId);
  // The goals as the goal clock just decided them, remembered (only the events since are read: stream-state-cache.ts).
  const goals = new DecisionBatch(store, goalDecider, tx, { rememberStates: true });
  await goals.load([...goalIds].map((id) => streams.goal(id)));
  const created = new Map<string, GoalDetails>();
  for (const id of goalIds) {
    const state = await goals.state(streams.goal(id));
    if (state.status !== 'none') created.set(id, state.goal);
  }
  const owners = [...new Set([...created.values()].map((g) => g.userId))];
  const indexes = await foldStreams(
    store,
    tx,
    userGoalsDecider,
    owners.map((id) => streams.userGoals(id)),
  );
  const paused = new Map<string, string[]>();
  for (const userId of owners) paused.set(userId, Object.keys(indexes.get(streams.userGoals(userId))!.paused));
  const zones = await timeZonesOf(store, tx, runnersPaid(events));
  return {
    goalOf: (id) => created.get(id) ?? null,
    pausedWeeks: (userId) => paused.get(userId) ?? [],
    timeZoneOf: (userId) => zones.get(userId) ?? DEFAULT_TIME_ZONE,
  };
}

/** The runners of the batch's runs that earn XP (commandFor pays them at their zone's surge). */
function runnersPaid(events: readonly RecordedEvent[]): string[] {
  const runners = new Set<string>();
  for (const event of events) {
    if (event.type !== 'RunRecorded') continue;
    const run = (event as unknown as Extract<RunEvent, { type: 'RunRecorded' }>).data;
    if (countedDistanceKm(run.verification, 'free_goal_or_xp') > 0) runners.add(run.userId);
  }
  return [...runners];
}

/** The events that settle a goal's week (commandFor's `settle`). */
const SETTLING = new Set(['GoalCompleted', 'GoalMissed', 'GoalCanceled']);

/** The ledger command an event calls for, if any. `surgeSchedule` folds the schedule (once per batch). */
async function commandFor(
  event: RecordedEvent,
  now: Temporal.Instant,
  surgeSchedule: () => Promise<SurgeScheduleState>,
  reads: SettleReads,
) {
  const domainEvent = { type: event.type, data: event.data } as RunEvent | GoalEvent | BadgeEvent;
  const settle = async (goalId: string, result: WeekResult): Promise<XpLedgerCommand | null> => {
    const goal = reads.goalOf(goalId);
    if (!goal) return null;
    // The runner's paused weeks, as committed now: the streak skips them (issue 25). A pause is fixed once its week
    // has begun, so every week before the one settled reads the same on a retry.
    const pausedWeeks = reads.pausedWeeks(goal.userId);
    return { type: 'SettleGoalWeek', userId: goal.userId, goalId, weekStart: goal.weekStart, result, pausedWeeks, now };
  };
  switch (domainEvent.type) {
    case 'RunRecorded': {
      const run = domainEvent.data;
      // Nothing to pay: answered before reading the surge schedule and the runner's zone.
      if (countedDistanceKm(run.verification, 'free_goal_or_xp') <= 0) return null;
      const surges = await surgeSchedule();
      return runXpCommand(run, reads.timeZoneOf(run.userId), surges.surges.values(), now);
    }
    case 'RunDeleted':
      return { type: 'RevokeRunXp', userId: domainEvent.data.userId, runId: domainEvent.data.runId, now } as const;
    case 'GoalCompleted':
      return settle(domainEvent.data.goalId, 'completed');
    case 'GoalMissed':
      return settle(domainEvent.data.goalId, 'missed');
    case 'GoalCanceled':
      // Canceling an active goal forfeits its week like a miss (§4); an upcoming one never had a week.
      return domainEvent.data.previousStatus === 'active' ? settle(domainEvent.data.goalId, 'missed') : null;
    case 'BadgeEarned': {
      const { userId, badgeId, badgeType } = domainEvent.data;
      return { type: 'AwardBadgeXp', userId, badgeId, badgeName: badgeDefinition(badgeType).name, now } as const;
    }
    default:
      return null;
  }
}

/**
 * Pays XP into each user's ledger (`xp-<userId>`): runs at the surge multiplier of their start, revocation on
 * deletion, goal and streak-week XP when a goal's week is settled, badge XP. The ledger decides idempotently and
 * the appends ride on the subscription's transaction, so each award happens exactly once.
 */
export const xpAwardsProcess: ProcessManager = {
  name: NAME,
  // The events commandFor turns into ledger commands; the engine delivers no others.
  eventTypes: ['RunRecorded', 'RunDeleted', 'GoalCompleted', 'GoalMissed', 'GoalCanceled', 'BadgeEarned'],
  async handle(events, { tx, store, now }) {
    const at = Temporal.Instant.fromEpochMilliseconds(now.getTime());
    // The schedule as committed now, read once for the batch (this process never writes it).
    let schedule: Promise<SurgeScheduleState> | null = null;
    const surgeSchedule = () => {
      schedule ??= foldStream(store, tx, surgeDecider, streams.surgeSchedule());
      return schedule;
    };
    // Commands are worked out side by side (reads only).
    const reads = await settleReads(store, tx, events);
    const commands = new Array<{ command: XpLedgerCommand; cause: RecordedEvent } | null>(events.length).fill(null);
    await inParallel(events, TICK_CONCURRENCY, async (event, index) => {
      const command = await commandFor(event, at, surgeSchedule, reads);
      if (command) commands[index] = { command, cause: event };
    });
    // Then every ledger is paid in log order, the whole batch in a few statements (payIntoLedgers).
    const due = commands.filter((c) => c !== null);
    await payIntoLedgers(
      store,
      tx,
      due.map(({ command, cause }) => ({
        command,
        metadata: processMetadata(NAME, now, cause, { derivedIds: '' }),
      })),
    );
  },
};
