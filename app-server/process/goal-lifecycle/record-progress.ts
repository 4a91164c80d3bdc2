import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { goalDecider } from '../../../domain/goal/decide.ts';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { goalProgress } from '../../../domain/goal/progress.ts';
import type { RunRecord } from '../../../domain/run/events.ts';
import type { Verification } from '../../../domain/run/verification.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { weekStartingOn } from '../../../domain/shared/week.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { processMetadata } from './process-metadata.ts';

/** Where to read and write: inside the subscription's transaction (event handling) or not (a clock tick). */
export interface ProgressContext {
  readonly db: Kysely<object> | Transaction<object>;
  readonly tx: Transaction<object> | null;
  readonly store: EventStore<Transaction<object>>;
  readonly now: Date;
}

/**
 * Recomputes one goal's progress from the runs this process has seen and records it (RecordProgress). The goal
 * decider turns the first figure at or above the target into GoalCompleted, once; later figures (a run deleted
 * after completion) are recorded but never undo the completion — see goal-lifecycle-process.ts for why.
 */
export async function recordGoalProgress(goalId: string, context: ProgressContext, cause: RecordedEvent | null) {
  const { db, tx, store, now } = context;
  const streamId = `goal-${goalId}`;
  const history = await store.readStream(streamId, tx ? { transaction: tx } : {});
  const state = foldEvents(
    goalDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as GoalEvent),
  );
  if (state.status !== 'active' && state.status !== 'completed') return;
  const week = weekStartingOn(state.goal.weekStart, state.goal.timeZone);
  const { rows } = await sql<{ user_id: string; started_at: Date; verification: Verification }>`
    SELECT user_id, started_at, verification FROM goal_lifecycle_runs
    WHERE user_id = ${state.goal.userId}
      AND started_at >= ${week.start.toString()}::timestamptz AND started_at < ${week.end.toString()}::timestamptz`.execute(
    db,
  );
  const runs = rows.map(
    (r) =>
      ({
        userId: r.user_id,
        startedAt: new Date(r.started_at).toISOString(),
        verification: r.verification,
      }) as RunRecord,
  );
  const progress = goalProgress(state.goal, runs);
  if (progress === state.progress) return;
  try {
    await executeCommand(
      store,
      goalDecider,
      streamId,
      { type: 'RecordProgress', progress, now: Temporal.Instant.fromEpochMilliseconds(now.getTime()) },
      processMetadata(now, cause),
      tx ? { transaction: tx } : {},
    );
  } catch (error) {
    // The goal closed in between (settled, canceled): nothing left to record.
    if (!(error instanceof DomainRefusal)) throw error;
  }
}
