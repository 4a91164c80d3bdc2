import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The goal lifecycle process's own memory: each recorded, not deleted run with its start and verdict, written in
 * the subscription's transaction (exactly once with its checkpoint). It does not read the runs read model, which
 * follows its own checkpoint and may be behind or mid-rebuild.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE goal_lifecycle_runs (
      run_id text PRIMARY KEY,
      user_id text NOT NULL,
      started_at timestamptz NOT NULL,
      verification jsonb NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX goal_lifecycle_runs_user_started ON goal_lifecycle_runs (user_id, started_at)`.execute(db);
}

/**
 * Run policy version 2 counts a run once among the runs it overlaps or repeats (domain/run/count-once.ts): the
 * process needs each run's claimed end and when it was recorded. Rows of older runs keep null (read as their start).
 */
async function upRunTimes(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE goal_lifecycle_runs ADD COLUMN ended_at timestamptz, ADD COLUMN recorded_at timestamptz`.execute(
    db,
  );
}

/**
 * runsAroundWeeks looks up repeats of a recording by user and track key, and runs reaching into a week by user and
 * end: without these indexes every one of the user's runs was read, so a run cost more the longer its runner's history.
 */
async function upRunLookups(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX goal_lifecycle_runs_user_track
    ON goal_lifecycle_runs (user_id, (verification->>'trackKey'))`.execute(db);
  // Runs overlapping a week from before it: those ending after the week began, not every run started before its end.
  await sql`CREATE INDEX goal_lifecycle_runs_user_ended
    ON goal_lifecycle_runs (user_id, (COALESCE(ended_at, started_at)))`.execute(db);
}

/** Migrations of the goal lifecycle process. */
export const goalLifecycleMigrations: Record<string, Migration> = {
  '2026-11-25-01-goal-lifecycle-runs': { up },
  '2026-12-10-01-goal-lifecycle-run-times': { up: upRunTimes },
  '2026-12-12-02-goal-lifecycle-run-lookups': { up: upRunLookups },
};
