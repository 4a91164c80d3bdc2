import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentGoalRows, currentGoalRowsOfUsers } from '../../projections/goals/current-goal.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/*
 * A saved run's answer reads its runners' current goal rows for the whole group at once (currentGoalRowsOfUsers) and
 * keeps them as each runner's cached GET /goals/current (app-server/http/routes/saved-runs.ts). That is exact only if
 * they are the very rows that read's own statement (currentGoalRows) gives: checked here on random goal sets.
 */
const STATUSES = ['upcoming', 'active', 'completed', 'missed', 'canceled', 'deleted'] as const;
const NOW = new Date('2026-11-18T17:00:00Z');
const WEEK_MS = 7 * 24 * 3_600_000;
const USERS = ['u1', 'u2', 'u3', 'u4'];

/** Up to six goals per user, each in its own week (a user has one live goal a week), any status. */
const goalSets = fc.array(
  fc.record({
    user: fc.constantFrom(...USERS),
    weeks: fc.uniqueArray(fc.integer({ min: -4, max: 3 }), { maxLength: 6 }),
    statuses: fc.array(fc.constantFrom(...STATUSES), { minLength: 6, maxLength: 6 }),
    // Where in its week `now` falls: the week's start is `now` moved back by this share of a week.
    offset: fc.double({ min: 0, max: 0.99, noNaN: true }),
  }),
  { maxLength: 4 },
);

describe.each(databaseTargets())('the current goal rows of several users in one statement (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: NOW.toISOString(), workers: false });
  }, 120_000);
  afterAll(() => runtime?.close());

  it('are, user by user, the rows currentGoalRows reads', async () => {
    const db = runtime.database.db;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(goalSets, async (sets) => {
        run++;
        await sql`DELETE FROM goals`.execute(db);
        const seen = new Set<string>();
        for (const set of sets) {
          if (seen.has(set.user)) continue; // one set per user keeps each user's weeks distinct
          seen.add(set.user);
          for (const [i, week] of set.weeks.entries()) {
            const startsAt = new Date(NOW.getTime() - set.offset * WEEK_MS + week * WEEK_MS);
            await sql`
              INSERT INTO goals (id, user_id, type, target_value, entered_value, entered_unit, stake_amount_cents,
                time_zone, period_start, period_end, week_starts_at, week_ends_at, status, progress, frozen,
                created_at, stake_forfeited)
              VALUES (${`g${run}-${set.user}-${i}`}, ${set.user}, 'distance', 10, 10, 'km', 0, 'UTC',
                ${startsAt.toISOString().slice(0, 10)}, ${startsAt.toISOString().slice(0, 10)}, ${startsAt},
                ${new Date(startsAt.getTime() + WEEK_MS)}, ${set.statuses[i]!}, ${i}, false, ${NOW}, false)
            `.execute(db);
          }
        }
        const together = await currentGoalRowsOfUsers(db, USERS, NOW);
        expect([...together.keys()]).toEqual(USERS);
        for (const user of USERS) expect(together.get(user)).toEqual(await currentGoalRows(db, user, NOW));
      }),
      { numRuns: Number(process.env.CURRENT_GOAL_RUNS ?? 60) },
    );
  }, 120_000);
});
