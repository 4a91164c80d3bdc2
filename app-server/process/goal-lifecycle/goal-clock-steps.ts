import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { goalDecider } from '../../../domain/goal/decide.ts';
import type { GoalCommand } from '../../../domain/goal/commands.ts';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { goalProgress } from '../../../domain/goal/progress.ts';
import { type GoalState, progressChangesGoal } from '../../../domain/goal/state.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { weekStartingOn } from '../../../domain/shared/week.ts';
import { runsAroundWeeks } from '../../../projections/goals/runs-around-week.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { type CommandMetadata, processMetadata } from '../../commands/event-metadata.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { inParallel, TICK_CONCURRENCY } from '../in-parallel.ts';
import { GOAL_LIFECYCLE } from './process-name.ts';
import { recordGoalProgress } from './record-progress.ts';
import { instantIso } from '../../../domain/shared/instant.ts';

/**
 * The goal clock's two steps, each in two forms that store the same events: together (a chunk of goals read in one
 * query, their runs in one more, every command decided in memory by the pure decider, everything appended in one
 * statement, each stream expecting the revision it was read at) and one by one (each goal read, decided and appended
 * on its own: the fallback when a chunk lost a race, and the reference the batch is tested against).
 */
export type ClockDeps = {
  readonly db: Kysely<object>;
  readonly store: EventStore<Transaction<object>>;
  readonly now: Date;
};

/** A goal whose week may be closed, as the goals read model lists it. */
export type ClosingGoal = { readonly id: string };

type Goals = DecisionBatch<GoalCommand, GoalEvent, GoalState>;

const tickMetadata = (now: Date): CommandMetadata =>
  processMetadata(GOAL_LIFECYCLE, now, `goal-lifecycle-tick-${now.toISOString()}`);
const instantOf = (now: Date) => Temporal.Instant.fromEpochMilliseconds(now.getTime());

/** ActivateGoal for each goal, decided in memory and appended at once. A refusal (not started yet) changes nothing. */
export async function activateTogether(goalIds: readonly string[], { store, now }: ClockDeps): Promise<void> {
  const goals: Goals = new DecisionBatch(store, goalDecider, undefined, { rememberStates: true });
  await goals.load(goalIds.map((id) => streams.goal(id)));
  const metadata = tickMetadata(now);
  for (const id of goalIds)
    await goals.decide(streams.goal(id), { type: 'ActivateGoal', now: instantOf(now) }, metadata);
  await goals.flush();
}

/** ActivateGoal goal by goal (several goals at once). */
export async function activateOneByOne(goalIds: readonly string[], { store, now }: ClockDeps): Promise<void> {
  await inParallel(goalIds, TICK_CONCURRENCY, (id) =>
    ignoringRefusals(() =>
      executeCommand(
        store,
        goalDecider,
        streams.goal(id),
        { type: 'ActivateGoal', now: instantOf(now) },
        tickMetadata(now),
      ),
    ),
  );
}

/**
 * Closes each goal's week with its final progress, as closeOneByOne does: the progress recomputed from the runs this
 * process keeps (RecordProgress first when it changes the goal, so a run of the last minutes still completes it),
 * then CloseWeek with that figure. The goals' streams come in one query, the runs of all their weeks in two
 * (runsAroundWeeks gives each week exactly what runsAroundWeek gives it), and every stream is appended at once.
 */
export async function closeTogether(
  goalsToClose: readonly ClosingGoal[],
  { db, store, now }: ClockDeps,
): Promise<void> {
  const goals: Goals = new DecisionBatch(store, goalDecider, undefined, { rememberStates: true });
  const ids = goalsToClose.map((g) => g.id);
  await goals.load(ids.map((id) => streams.goal(id)));
  // Only open goals have a week to close (a settled or canceled one is skipped, as recordGoalProgress answers null).
  const open: Extract<GoalState, { status: 'active' | 'completed' }>[] = [];
  for (const id of ids) {
    const state = await goals.state(streams.goal(id));
    if (state.status === 'active' || state.status === 'completed') open.push(state);
  }
  const weeks = open.map((state) => {
    const week = weekStartingOn(state.goal.weekStart, state.goal.timeZone);
    const key = state.goal.goalId;
    return { key, userId: state.goal.userId, from: instantIso(week.start), to: instantIso(week.end) };
  });
  const runs = await runsAroundWeeks(db, sql.table('goal_lifecycle_runs'), weeks);
  const metadata = tickMetadata(now);
  const at = instantOf(now);
  for (const state of open) {
    const streamId = streams.goal(state.goal.goalId);
    const progress = goalProgress(state.goal, runs.get(state.goal.goalId) ?? []);
    // Refusals are answered, not thrown: the goal moved on, and a later tick has nothing to do (as one by one).
    if (progressChangesGoal(state, progress)) {
      await goals.decide(streamId, { type: 'RecordProgress', progress, now: at }, metadata);
    }
    await goals.decide(streamId, { type: 'CloseWeek', progress, now: at }, metadata);
  }
  await goals.flush();
}

/** Closes each goal's week goal by goal (several goals at once): recordGoalProgress, then CloseWeek. */
export async function closeOneByOne(
  goalsToClose: readonly ClosingGoal[],
  { db, store, now }: ClockDeps,
): Promise<void> {
  await inParallel(goalsToClose, TICK_CONCURRENCY, async (goal) => {
    const progress = await recordGoalProgress(goal.id, { db, tx: null, store, now }, null);
    if (progress === null) return; // not open any more (settled, canceled): nothing to close
    await ignoringRefusals(() =>
      executeCommand(
        store,
        goalDecider,
        streams.goal(goal.id),
        { type: 'CloseWeek', progress, now: instantOf(now) },
        tickMetadata(now),
      ),
    );
  });
}

/** A refusal here means the goal moved on (canceled, completed meanwhile): the next tick has nothing to do. */
async function ignoringRefusals(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof DomainRefusal)) throw error;
  }
}
