import { sql, type Transaction } from 'kysely';
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
import { processMetadata } from './process-metadata.ts';
import { recordGoalProgress } from './record-progress.ts';

/**
 * The goal lifecycle (§4 Goal): progress and completion from runs, activation at week start, missed at week end.
 *
 * Events: a recorded or deleted run recomputes the progress of the user's goal whose week holds the run's start
 * (in that goal's zone); an activation recomputes it too (runs of Monday morning before the tick count). The goal
 * decider completes the goal the first time progress reaches 100%. Cancel and delete free the week in the user's
 * goal index (idempotent; the HTTP handler does it first, this is the crash-safe repeat).
 *
 * Decision — a run deleted after its goal was completed: completion stands, progress is re-recorded lower.
 * Why this is the safe side for money: (1) only runs the counting policy trusts for money count toward a staked
 * goal (domain/run/counting.ts), so the completing run had already passed verification when it released the
 * hold; deleting it afterwards adds no power to cheat, and its RunRecorded stays in the log for an auditor.
 * (2) Revoking a completion would capture a stake from someone the product told "Goal achieved!" — the failure
 * FACTS says regulators fined. (3) A completion cannot be repeated: the decider emits GoalCompleted once, so
 * deleting and re-logging runs never releases or awards twice, and a completed goal is never marked missed.
 * tests/api/goals-lifecycle.test.ts pins all three.
 */
export const goalLifecycleProcess: ProcessManager = {
  name: 'goal-lifecycle',

  async handle(events, { tx, store, now }) {
    const affected = new Map<string, RecordedEvent>();
    for (const recorded of events) {
      const event = recorded as unknown as GoalEvent | RunEvent;
      switch (event.type) {
        case 'RunRecorded': {
          const d = event.data;
          await sql`
            INSERT INTO goal_lifecycle_runs (run_id, user_id, started_at, verification)
            VALUES (${d.runId}, ${d.userId}, ${d.startedAt}::timestamptz, ${JSON.stringify(d.verification)}::jsonb)
            ON CONFLICT (run_id) DO NOTHING`.execute(tx);
          for (const goalId of await goalsHolding(d.userId, d.startedAt, tx, store)) affected.set(goalId, recorded);
          break;
        }
        case 'RunDeleted': {
          const { rows } = await sql<{ started_at: Date }>`
            DELETE FROM goal_lifecycle_runs WHERE run_id = ${event.data.runId} RETURNING started_at`.execute(tx);
          const startedAt = rows[0] ? new Date(rows[0].started_at).toISOString() : null;
          if (startedAt === null) break;
          for (const goalId of await goalsHolding(event.data.userId, startedAt, tx, store)) {
            affected.set(goalId, recorded);
          }
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

/** The user's live goals whose week (in each goal's zone) contains `startedAt`. */
async function goalsHolding(
  userId: string,
  startedAt: string,
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
): Promise<string[]> {
  const history = await store.readStream(`user-goals-${userId}`, { transaction: tx });
  const index = foldEvents(
    userGoalsDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as UserGoalsEvent),
  );
  const at = Temporal.Instant.from(startedAt);
  return Object.entries(index.live)
    .filter(([, week]) => isWithinWeek(at, weekStartingOn(week.weekStart, week.timeZone)))
    .map(([goalId]) => goalId);
}

async function releaseWeek(
  cause: RecordedEvent,
  goalId: string,
  tx: Transaction<object>,
  store: EventStore<Transaction<object>>,
  now: Date,
): Promise<void> {
  const created = (await store.readStream(`goal-${goalId}`, { transaction: tx, maxCount: 1 }))[0];
  const userId = (created?.data as { userId?: string } | undefined)?.userId;
  if (!userId) return;
  await executeCommand(
    store,
    userGoalsDecider,
    `user-goals-${userId}`,
    { type: 'ReleaseGoalWeek', goalId },
    processMetadata(now, cause),
    { transaction: tx },
  );
}
