import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { maySettle } from '../../../domain/shared/settlement.ts';
import { StreamOrderConflictError, WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import type { ProcessTickContext } from '../process-manager.ts';
import {
  activateOneByOne,
  activateTogether,
  type ClockDeps,
  type ClosingGoal,
  closeOneByOne,
  closeTogether,
} from './goal-clock-steps.ts';

/**
 * The goal clock: activates upcoming goals whose week has begun in their own zone, and closes active and completed
 * goals whose week may be settled (never before the week ended in the goal's zone, nor before Monday 00:00 New York). The
 * candidates come from the goals read model; the decider re-checks every rule against the goal's stream, so a lag
 * or a repeated tick changes nothing twice (ActivateGoal and CloseWeek are idempotent).
 * Before closing, progress is recomputed once more so a run recorded in the last minutes still completes the goal;
 * the week closes with that figure. A Monday closes many thousands of weeks, so goals are worked in chunks: one query
 * reads a chunk's streams, one more the runs of all its weeks, the pure decider decides in memory, and one statement
 * appends the chunk (goal-clock-steps.ts). A chunk that lost a race (the lifecycle's event handler recorded a late run's
 * progress meanwhile) wrote nothing, and is worked again from fresh reads: together once more, then goal by goal.
 */
export async function tickGoalClock({ db, store, now }: ProcessTickContext): Promise<void> {
  const deps: ClockDeps = { db, store, now };
  const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  const at = now.toISOString();
  const { rows: starting } = await sql<{ id: string }>`
    SELECT id FROM goals WHERE status = 'upcoming' AND week_starts_at <= ${at}::timestamptz ORDER BY id`.execute(db);
  await activateInChunks(
    starting.map((g) => g.id),
    deps,
  );
  // Completed goals close too: until then a deleted run can still withdraw their completion (goal/decide.ts).
  const { rows: ending } = await sql<{ id: string; period_start: string; time_zone: string }>`
    SELECT id, period_start, time_zone FROM goals
    WHERE status IN ('active', 'completed') AND NOT frozen AND week_ends_at <= ${at}::timestamptz ORDER BY id`.execute(
    db,
  );
  const closing: ClosingGoal[] = ending.filter((goal) => maySettle(goal.period_start, goal.time_zone, instant));
  await closeInChunks(closing, deps);
}

/** Activates the goals chunk by chunk (a chunk that lost a race goes one by one). */
export function activateInChunks(goalIds: readonly string[], deps: ClockDeps): Promise<void> {
  return inChunks(
    goalIds,
    (ids) => activateTogether(ids, deps),
    (ids) => activateOneByOne(ids, deps),
  );
}

/** Closes the goals' weeks chunk by chunk (a chunk that lost a race goes one by one). */
export function closeInChunks(goals: readonly ClosingGoal[], deps: ClockDeps): Promise<void> {
  return inChunks(
    goals,
    (chunk) => closeTogether(chunk, deps),
    (chunk) => closeOneByOne(chunk, deps),
  );
}

/** How many goals one chunk reads and appends in one statement each. */
export const GOAL_CLOCK_CHUNK = 500;

/** How many times a chunk is read and decided together before it goes one by one. */
export const CHUNK_ATTEMPTS = 2;

/**
 * Works `items` chunk by chunk together. A chunk that lost a race (nothing of it written) is read and decided together
 * once more from fresh reads, which is what going one by one from fresh reads decides, in a few statements instead of
 * a few per goal; a chunk that loses again goes one by one.
 */
async function inChunks<T>(
  items: readonly T[],
  together: (chunk: readonly T[]) => Promise<void>,
  oneByOne: (chunk: readonly T[]) => Promise<void>,
): Promise<void> {
  for (let from = 0; from < items.length; from += GOAL_CLOCK_CHUNK) {
    const chunk = items.slice(from, from + GOAL_CLOCK_CHUNK);
    for (let attempt = 1; ; attempt++) {
      try {
        await together(chunk);
        break;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError)) throw error;
        if (attempt < CHUNK_ATTEMPTS) continue;
        await oneByOne(chunk);
        break;
      }
    }
  }
}
