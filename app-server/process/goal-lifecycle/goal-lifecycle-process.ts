import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { userGoalsDecider, type UserGoalsState } from '../../../domain/goal/user-goals.ts';
import { appealOpensAt } from '../../../domain/stake/appeal-policy.ts';
import type { RunEvent, RunRecorded } from '../../../domain/run/events.ts';
import type { StakeAppealed } from '../../../domain/stake/appeal-events.ts';
import { comparePositions, type EventStore, type RecordedEvent } from '../../../domain/shared/event-store.ts';
import { isWithinWeek, weekStartingOn } from '../../../domain/shared/week.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { inParallelByKey, TICK_CONCURRENCY } from '../in-parallel.ts';
import type { ProcessManager } from '../process-manager.ts';
import { tickGoalClock } from './goal-clock.ts';
import { recordProgressTogether } from './record-progress.ts';
import { forgetRun, rememberRuns, startsAffectedBy, startsAffectedByEach } from './run-facts.ts';
import { type EvidenceTrigger, weighStakesEvidence } from './stake-evidence.ts';
import { loadStake } from '../stakes/stake-stream.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { GOAL_LIFECYCLE } from './process-name.ts';
import { foldStreams } from '../fold-streams.ts';
import { streams } from '../../../domain/shared/streams.ts';

/**
 * The goal lifecycle (§4 Goal): progress and completion from runs, activation at week start, missed at week end.
 *
 * Events: a recorded or deleted run recomputes the progress of the user's goal whose week holds the run's start
 * (in that goal's zone); an activation recomputes it too (runs of Monday morning before the tick count). The goal
 * decider completes the goal the first time progress reaches 100%. Cancel and delete free the week in the user's
 * goal index (idempotent; the HTTP handler does it first, this is the crash-safe repeat).
 *
 * A run recorded or deleted can change the count of the runs it overlaps or repeats (domain/run/count-once.ts), so
 * the goals recomputed are those holding the start of the run or of any of those runs.
 *
 * A run deleted after its goal was completed: the goal decider withdraws the completion while the week is open
 * and progress fell below the target; a released hold stays released (domain/goal/decide.ts "Completion and
 * deleted runs" says why, and the stake audit lists such stakes). tests/api/goals-lifecycle.test.ts pins it.
 */
export const goalLifecycleProcess: ProcessManager = {
  name: 'goal-lifecycle',
  // Also what `handle` switches over (HANDLED): a new case must be named here too, or it is never delivered.
  eventTypes: ['RunRecorded', 'RunDeleted', 'GoalActivated', 'GoalCanceled', 'GoalDeleted', 'StakeAppealed'],

  async handle(events, { tx, store, now }) {
    // Affected goals, each with the latest event (in log order) that affected it: the cause its command records.
    const affected = new Map<string, RecordedEvent>();
    const affect = (goalId: string, cause: RecordedEvent) => {
      const known = affected.get(goalId);
      if (!known || comparePositions(cause.position, known.position) > 0) affected.set(goalId, cause);
    };
    // Staked weeks whose evidence to weigh (stake-evidence.ts): appealed, or a run arrived in them.
    const evidence = new Map<string, { cause: RecordedEvent; trigger: EvidenceTrigger }>();
    const relevant = events.filter((e) => HANDLED.has(e.type));
    // The batch's recorded runs (nearly every event here), in three statements whatever their number: kept, the
    // starts each one affects found, their runners' goal indexes read (run-facts.ts says why order does not matter).
    const recordedRuns = relevant.filter((e) => e.type === 'RunRecorded');
    const spans = await rememberRuns(
      tx,
      recordedRuns.map((e) => (e as unknown as RunRecorded).data),
    );
    const starts = await startsAffectedByEach(tx, spans);
    const weeksOf = await liveGoalWeeksOf(
      spans.map((run) => run.userId),
      tx,
      store,
    );
    const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
    for (const [i, recorded] of recordedRuns.entries()) {
      const run = spans[i]!;
      const weeks = weeksOf.get(run.userId) ?? {};
      for (const goalId of goalsHolding(weeks, starts.get(run.runId)!)) affect(goalId, recorded);
      // Only a week whose appeal window has opened (its last day or later) can take a run as evidence: the runs of
      // Monday to Saturday, nearly all of them, skip the weighing and its reads.
      for (const goalId of goalsHolding(weeks, [run.startedAt])) {
        const week = weeks[goalId]!;
        if (Temporal.Instant.compare(instant, appealOpensAt(week.weekStart, week.timeZone)) < 0) continue;
        evidence.set(goalId, { cause: recorded, trigger: { kind: 'run', runId: run.runId } });
      }
    }
    // The rest, rare: one user's deleted runs in log order, different users side by side, so the round trips of a
    // batch overlap instead of adding up (the log's visible horizon is held at the batch's id while it is open). Goal
    // events keep their own order in one more lane.
    const others = relevant.filter((e) => e.type !== 'RunRecorded');
    await inParallelByKey(others, laneOf, TICK_CONCURRENCY, async (recorded) => {
      const event = recorded as unknown as GoalEvent | RunEvent | StakeAppealed;
      switch (event.type) {
        case 'StakeAppealed': {
          const stake = await loadStake(store, event.data.stakeId, tx);
          if (stake.status !== 'none')
            evidence.set(stake.terms.goalId, { cause: recorded, trigger: { kind: 'appeal' } });
          break;
        }
        case 'RunDeleted': {
          const run = await forgetRun(tx, event.data.runId);
          if (run === null) break;
          const starts = await startsAffectedBy(tx, run);
          const weeks = (await liveGoalWeeksOf([run.userId], tx, store)).get(run.userId) ?? {};
          for (const goalId of goalsHolding(weeks, starts)) affect(goalId, recorded);
          break;
        }
        case 'GoalActivated':
          affect(event.data.goalId, recorded);
          break;
        case 'GoalCanceled':
        case 'GoalDeleted':
          await releaseWeek(recorded, event.data.goalId, tx, store, now);
          break;
        default:
          break;
      }
    });
    await recordProgressTogether([...affected], { db: tx, tx, store, now });
    await weighStakesEvidence(
      [...evidence].map(([goalId, { cause, trigger }]) => ({ goalId, cause, trigger })),
      { db: tx, tx, store, now },
    );
  },

  tick: tickGoalClock,
};

const HANDLED = new Set(goalLifecycleProcess.eventTypes);

/** Run events go in their user's lane; goal events (which name no user) in one lane of their own. */
function laneOf(recorded: RecordedEvent): string {
  const userId = (recorded.data as { userId?: unknown }).userId;
  return recorded.type.startsWith('Run') && typeof userId === 'string' ? `user:${userId}` : 'goal-events';
}

/** The weeks of each user's live goals, by user and goal id: their goal indexes, read in one query. */
async function liveGoalWeeksOf(
  userIds: readonly string[],
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
): Promise<Map<string, UserGoalsState['live']>> {
  const indexes = await foldStreams(
    store,
    tx,
    userGoalsDecider,
    userIds.map((id) => streams.userGoals(id)),
  );
  return new Map(userIds.map((userId) => [userId, indexes.get(streams.userGoals(userId))!.live]));
}

/** The goals among `weeks` whose week (in each goal's zone) contains one of these instants. */
function goalsHolding(weeks: UserGoalsState['live'], instants: readonly string[]): string[] {
  const at = instants.map((i) => Temporal.Instant.from(i));
  return Object.entries(weeks)
    .filter(([, week]) => at.some((i) => isWithinWeek(i, weekStartingOn(week.weekStart, week.timeZone))))
    .map(([goalId]) => goalId);
}

async function releaseWeek(
  cause: RecordedEvent,
  goalId: string,
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
  now: Date,
): Promise<void> {
  const created = (await store.readStream(streams.goal(goalId), { transaction: tx, maxCount: 1 }))[0];
  const userId = (created?.data as { userId?: string } | undefined)?.userId;
  if (!userId) return;
  await executeCommand(
    store,
    userGoalsDecider,
    streams.userGoals(userId),
    { type: 'ReleaseGoalWeek', goalId },
    processMetadata(GOAL_LIFECYCLE, now, cause),
    { transaction: tx },
  );
}
