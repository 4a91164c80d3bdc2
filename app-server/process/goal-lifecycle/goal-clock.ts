import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { goalDecider } from '../../../domain/goal/decide.ts';
import { maySettle } from '../../../domain/shared/settlement.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { inParallel, TICK_CONCURRENCY } from '../in-parallel.ts';
import type { ProcessTickContext } from '../process-manager.ts';
import { recordGoalProgress } from './record-progress.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { GOAL_LIFECYCLE } from './process-name.ts';
import { streams } from '../../../domain/shared/streams.ts';

/**
 * The goal clock: activates upcoming goals whose week has begun in their own zone, and closes active and completed
 * goals whose week may be settled (never before the week ended in the goal's zone, nor before Monday 00:00 New York). The
 * candidates come from the goals read model; the decider re-checks every rule against the goal's stream, so a lag
 * or a repeated tick changes nothing twice (ActivateGoal and CloseWeek are idempotent).
 * Before closing, progress is recomputed once more so a run recorded in the last minutes still completes the goal;
 * the week closes with that figure. Goals are worked on several at once (each is its own stream, and the decider
 * guards each one), so a Monday with many thousands of weeks to close is not one long queue of round trips.
 */
export async function tickGoalClock({ db, store, now }: ProcessTickContext): Promise<void> {
  const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  const at = now.toISOString();
  const { rows: starting } = await sql<{ id: string }>`
    SELECT id FROM goals WHERE status = 'upcoming' AND week_starts_at <= ${at}::timestamptz ORDER BY id`.execute(db);
  await inParallel(starting, TICK_CONCURRENCY, ({ id }) =>
    ignoringRefusals(() =>
      executeCommand(
        store,
        goalDecider,
        streams.goal(id),
        { type: 'ActivateGoal', now: instant },
        processMetadata(GOAL_LIFECYCLE, now, `goal-lifecycle-tick-${now.toISOString()}`),
      ),
    ),
  );
  // Completed goals close too: until then a deleted run can still withdraw their completion (goal/decide.ts).
  const { rows: ending } = await sql<{ id: string; period_start: string; time_zone: string }>`
    SELECT id, period_start, time_zone FROM goals
    WHERE status IN ('active', 'completed') AND NOT frozen AND week_ends_at <= ${at}::timestamptz ORDER BY id`.execute(
    db,
  );
  const closing = ending.filter((goal) => maySettle(goal.period_start, goal.time_zone, instant));
  await inParallel(closing, TICK_CONCURRENCY, async (goal) => {
    const progress = await recordGoalProgress(goal.id, { db, tx: null, store, now }, null);
    if (progress === null) return; // not open any more (settled, canceled): nothing to close
    await ignoringRefusals(() =>
      executeCommand(
        store,
        goalDecider,
        streams.goal(goal.id),
        { type: 'CloseWeek', progress, now: instant },
        processMetadata(GOAL_LIFECYCLE, now, `goal-lifecycle-tick-${now.toISOString()}`),
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
