import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { userGoalsDecider, type UserGoalsEvent } from '../../../domain/goal/user-goals.ts';
import type { RunEvent } from '../../../domain/run/events.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import { comparePositions, type EventStore, type RecordedEvent } from '../../../domain/shared/event-store.ts';
import { isWithinWeek, weekStartingOn } from '../../../domain/shared/week.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { inParallel, inParallelByKey, TICK_CONCURRENCY } from '../in-parallel.ts';
import type { ProcessManager } from '../process-manager.ts';
import { tickGoalClock } from './goal-clock.ts';
import { recordGoalProgress } from './record-progress.ts';
import { forgetRun, rememberRun, startsAffectedBy } from './run-facts.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { GOAL_LIFECYCLE } from './process-name.ts';
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

  async handle(events, { tx, store, now }) {
    // Affected goals, each with the latest event (in log order) that affected it: the cause its command records.
    const affected = new Map<string, RecordedEvent>();
    const affect = (goalId: string, cause: RecordedEvent) => {
      const known = affected.get(goalId);
      if (!known || comparePositions(cause.position, known.position) > 0) affected.set(goalId, cause);
    };
    // One user's runs in log order (each sees the runs before it), different users side by side: the round trips of
    // a batch overlap instead of adding up, which keeps the batch's transaction (and the log's visible horizon,
    // held at its id while it is open) short. Goal events keep their own order in one more lane.
    const relevant = events.filter((e) => HANDLED.has(e.type));
    await inParallelByKey(relevant, laneOf, TICK_CONCURRENCY, async (recorded) => {
      const event = recorded as unknown as GoalEvent | RunEvent;
      switch (event.type) {
        case 'RunRecorded': {
          const run = await rememberRun(tx, event.data);
          const starts = await startsAffectedBy(tx, run);
          for (const goalId of await goalsHolding(run.userId, starts, tx, store)) affect(goalId, recorded);
          break;
        }
        case 'RunDeleted': {
          const run = await forgetRun(tx, event.data.runId);
          if (run === null) break;
          const starts = await startsAffectedBy(tx, run);
          for (const goalId of await goalsHolding(run.userId, starts, tx, store)) affect(goalId, recorded);
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
    await inParallel([...affected], TICK_CONCURRENCY, async ([goalId, cause]) => {
      await recordGoalProgress(goalId, { db: tx, tx, store, now }, cause);
    });
  },

  tick: tickGoalClock,
};

const HANDLED = new Set(['RunRecorded', 'RunDeleted', 'GoalActivated', 'GoalCanceled', 'GoalDeleted']);

/** Run events go in their user's lane; goal events (which name no user) in one lane of their own. */
function laneOf(recorded: RecordedEvent): string {
  const userId = (recorded.data as { userId?: unknown }).userId;
  return recorded.type.startsWith('Run') && typeof userId === 'string' ? `user:${userId}` : 'goal-events';
}

/** The user's live goals whose week (in each goal's zone) contains one of these instants. */
async function goalsHolding(
  userId: string,
  instants: readonly string[],
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
): Promise<string[]> {
  const history = await store.readStream(streams.userGoals(userId), { transaction: tx });
  const index = foldEvents(
    userGoalsDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as UserGoalsEvent),
  );
  const at = instants.map((i) => Temporal.Instant.from(i));
  return Object.entries(index.live)
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
