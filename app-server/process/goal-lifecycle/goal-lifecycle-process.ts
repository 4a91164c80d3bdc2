import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { userGoalsDecider, type UserGoalsEvent } from '../../../domain/goal/user-goals.ts';
import type { RunEvent } from '../../../domain/run/events.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { isWithinWeek, weekStartingOn } from '../../../domain/shared/week.ts';
import { executeCommand } from '../../commands/execute-command.ts';
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
    const affected = new Map<string, RecordedEvent>();
    for (const recorded of events) {
      const event = recorded as unknown as GoalEvent | RunEvent;
      switch (event.type) {
        case 'RunRecorded': {
          const run = await rememberRun(tx, event.data);
          const starts = await startsAffectedBy(tx, run);
          for (const goalId of await goalsHolding(run.userId, starts, tx, store)) affected.set(goalId, recorded);
          break;
        }
        case 'RunDeleted': {
          const run = await forgetRun(tx, event.data.runId);
          if (run === null) break;
          const starts = await startsAffectedBy(tx, run);
          for (const goalId of await goalsHolding(run.userId, starts, tx, store)) affected.set(goalId, recorded);
          break;
        }
        case 'GoalActivated':
          affected.set(event.data.goalId, recorded);
          break;
        case 'GoalCanceled':
        case 'GoalDeleted':
          await releaseWeek(recorded, event.data.goalId, tx, store, now);
          break;
        default:
          break;
      }
    }
    for (const [goalId, cause] of affected) {
      await recordGoalProgress(goalId, { db: tx, tx, store, now }, cause);
    }
  },

  tick: tickGoalClock,
};

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
