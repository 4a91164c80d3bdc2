import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { goalDecider } from '../../../domain/goal/decide.ts';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { type GoalState, progressChangesGoal } from '../../../domain/goal/state.ts';
import { goalProgress } from '../../../domain/goal/progress.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { weekStartingOn } from '../../../domain/shared/week.ts';
import { runsAroundWeek, runsAroundWeeks } from '../../../projections/goals/runs-around-week.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { GOAL_LIFECYCLE } from './process-name.ts';
import { streams } from '../../../domain/shared/streams.ts';

/** Where to read and write: inside the subscription's transaction (event handling) or not (a clock tick). */
export interface ProgressContext {
  readonly db: Kysely<object> | Transaction<object>;
  readonly tx: Transaction<object> | null;
  readonly store: EventStore<Transaction<object>>;
  readonly now: Date;
}

/**
 * Recomputes one goal's progress from the runs this process has seen and, when it changes the goal, records it
 * (RecordProgress): the goal decider completes the goal at the target, and withdraws the completion when a deleted
 * run takes it below before the week is closed (see goal-lifecycle-process.ts). Answers the figure (CloseWeek closes
 * the week with it), or null when the goal is not active or completed.
 */
export async function recordGoalProgress(
  goalId: string,
  context: ProgressContext,
  cause: RecordedEvent | null,
): Promise<number | null> {
  const { db, tx, store, now } = context;
  const streamId = streams.goal(goalId);
  const history = await store.readStream(streamId, tx ? { transaction: tx } : {});
  const state = foldEvents(
    goalDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as GoalEvent),
  );
  if (state.status !== 'active' && state.status !== 'completed') return null;
  const week = weekStartingOn(state.goal.weekStart, state.goal.timeZone);
  const runs = await runsAroundWeek(db, sql.table('goal_lifecycle_runs'), state.goal.userId, {
    from: week.start.toString(),
    to: week.end.toString(),
  });
  const progress = goalProgress(state.goal, runs);
  if (!progressChangesGoal(state, progress)) return progress;
  try {
    await executeCommand(
      store,
      goalDecider,
      streamId,
      { type: 'RecordProgress', progress, now: Temporal.Instant.fromEpochMilliseconds(now.getTime()) },
      processMetadata(GOAL_LIFECYCLE, now, cause ?? `goal-lifecycle-tick-${now.toISOString()}`),
      tx ? { transaction: tx } : {},
    );
  } catch (error) {
    // The goal closed in between (settled, canceled): nothing left to record.
    if (!(error instanceof DomainRefusal)) throw error;
  }
  return progress;
}

/**
 * recordGoalProgress for every goal a batch of events affected, each with its cause, as goal by goal would store
 * it: the goals' streams read in one query, the runs of all their weeks in two (runsAroundWeeks gives each week what
 * runsAroundWeek gives it), each RecordProgress decided in memory, every stream appended in one statement. A goal no
 * longer open is skipped and a refusal changes nothing, as recordGoalProgress answers them; a stream written
 * meanwhile fails the append, and with it the batch, which the process then works again from fresh reads.
 */
export async function recordProgressTogether(
  affected: readonly (readonly [goalId: string, cause: RecordedEvent])[],
  context: ProgressContext & { readonly tx: Transaction<object> },
): Promise<void> {
  if (affected.length === 0) return;
  const { tx, store, now } = context;
  const goals = new DecisionBatch(store, goalDecider, tx, { rememberStates: true });
  await goals.load(affected.map(([goalId]) => streams.goal(goalId)));
  const open: { state: Extract<GoalState, { status: 'active' | 'completed' }>; cause: RecordedEvent }[] = [];
  for (const [goalId, cause] of affected) {
    const state = await goals.state(streams.goal(goalId));
    if (state.status === 'active' || state.status === 'completed') open.push({ state, cause });
  }
  const runs = await runsAroundWeeks(
    tx,
    sql.table('goal_lifecycle_runs'),
    open.map(({ state }) => {
      const week = weekStartingOn(state.goal.weekStart, state.goal.timeZone);
      return {
        key: state.goal.goalId,
        userId: state.goal.userId,
        from: week.start.toString(),
        to: week.end.toString(),
      };
    }),
  );
  const at = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  for (const { state, cause } of open) {
    const progress = goalProgress(state.goal, runs.get(state.goal.goalId) ?? []);
    if (!progressChangesGoal(state, progress)) continue;
    const metadata = processMetadata(GOAL_LIFECYCLE, now, cause);
    await goals.decide(streams.goal(state.goal.goalId), { type: 'RecordProgress', progress, now: at }, metadata);
  }
  await goals.flush();
}
