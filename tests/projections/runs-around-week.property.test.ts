import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../app-server/db/database.ts';
import type { GoalDetails } from '../../domain/goal/events.ts';
import { type GoalRun, goalProgress } from '../../domain/goal/progress.ts';
import type { Verification } from '../../domain/run/verification.ts';
import { weekStartingOn } from '../../domain/shared/week.ts';
import { runsAroundWeek, runsAroundWeeks } from '../../projections/goals/runs-around-week.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

/*
 * Goal progress is one computation (domain/goal/progress.ts) over the runs SQL selects (runsAroundWeek: the runs of
 * the week with the runs they overlap or repeat). The goals read model and the goal lifecycle both count that way,
 * so the selection must never change the figure: counted over the runs SQL picks, a goal's progress equals the
 * progress counted over all of the user's runs. This property proves it on PGlite.
 */

const goal: GoalDetails = {
  goalId: 'g',
  userId: 'u1',
  type: 'distance',
  targetValue: 20,
  enteredValue: 20,
  enteredUnit: 'km',
  stakeAmountCents: 1000,
  charityId: null,
  paymentMethodId: 'pm',
  timeZone: 'Pacific/Honolulu',
  weekStart: '2025-03-10',
  weekEnd: '2025-03-16',
};
const week = weekStartingOn(goal.weekStart, goal.timeZone);
// Runs start from two days before the week to two days after it, so every boundary is crossed.
const spanStartMs = week.start.epochMilliseconds - 2 * 86_400_000;
const spanMs = week.end.epochMilliseconds - week.start.epochMilliseconds + 4 * 86_400_000;

interface RunShape {
  readonly user: 'u1' | 'u2';
  readonly startOffsetMin: number;
  readonly minutes: number;
  readonly stakeKm: number;
  readonly extraFreeKm: number;
  readonly trackKey: string | null;
  readonly version: 1 | 2;
  readonly recordedAfterMin: number;
}

const runShape: fc.Arbitrary<RunShape> = fc.record({
  user: fc.constantFrom('u1' as const, 'u1' as const, 'u2' as const),
  // Clustered near the week's edges as often as inside it, where overlaps and cut-offs matter.
  startOffsetMin: fc.oneof(
    fc.integer({ min: 0, max: Math.floor(spanMs / 60_000) }),
    fc.integer({ min: 2 * 1440 - 120, max: 2 * 1440 + 60 }),
    fc.integer({ min: 9 * 1440 - 120, max: 9 * 1440 + 60 }),
  ),
  minutes: fc.integer({ min: 5, max: 180 }),
  stakeKm: fc.integer({ min: 0, max: 2500 }).map((h) => h / 100),
  extraFreeKm: fc.integer({ min: 0, max: 500 }).map((h) => h / 100),
  trackKey: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: null }),
  version: fc.constantFrom(1 as const, 2 as const, 2 as const),
  recordedAfterMin: fc.integer({ min: 0, max: 3000 }),
});

function verificationOf(shape: RunShape, startMs: number, endMs: number): Verification {
  const freeKm = Math.round((shape.stakeKm + shape.extraFreeKm) * 100) / 100;
  if (shape.version === 1) return { verdict: 'verified', reasons: [], trustedDistanceKm: freeKm, policyVersion: 1 };
  return {
    verdict: 'verified',
    reasons: [],
    trustedDistanceKm: freeKm,
    stakeDistanceKm: shape.stakeKm,
    claimedDistanceKm: freeKm,
    excluded: [],
    stakeStretches: shape.stakeKm > 0 ? [{ startMs, endMs, km: shape.stakeKm }] : [],
    trackKey: shape.trackKey,
    policyVersion: 2,
  };
}

function runsOf(shapes: readonly RunShape[]): GoalRun[] {
  return shapes.map((shape, i) => {
    const startedAtMs = spanStartMs + shape.startOffsetMin * 60_000;
    const endedAtMs = startedAtMs + shape.minutes * 60_000;
    return {
      runId: `r${String(i).padStart(3, '0')}`,
      userId: shape.user,
      startedAtMs,
      endedAtMs,
      recordedAtMs: endedAtMs + shape.recordedAfterMin * 60_000,
      verification: verificationOf(shape, startedAtMs, endedAtMs),
    };
  });
}

describe('goal progress over the runs SQL selects equals progress over all the user’s runs', () => {
  let database: Database;
  const table = sql.table('facts');
  beforeAll(async () => {
    database = await openMemoryDatabase();
    await sql`
      CREATE TABLE facts (run_id text PRIMARY KEY, user_id text NOT NULL, started_at timestamptz NOT NULL,
        ended_at timestamptz NOT NULL, recorded_at timestamptz NOT NULL, verification jsonb NOT NULL)`.execute(
      database.db,
    );
  }, 60_000);
  afterAll(() => database?.close());

  it('for staked and free, distance and count goals (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(runShape, { maxLength: 14 }), async (shapes) => {
        const runs = runsOf(shapes);
        await sql`DELETE FROM facts`.execute(database.db);
        if (runs.length > 0) {
          const rows = runs.map((r) => ({
            run_id: r.runId,
            user_id: r.userId,
            started_at: new Date(r.startedAtMs).toISOString(),
            ended_at: new Date(r.endedAtMs).toISOString(),
            recorded_at: new Date(r.recordedAtMs).toISOString(),
            verification: r.verification,
          }));
          await sql`
            INSERT INTO facts SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
              AS r(run_id text, user_id text, started_at timestamptz, ended_at timestamptz, recorded_at timestamptz,
                   verification jsonb)`.execute(database.db);
        }
        const selected = await runsAroundWeek(database.db, table, 'u1', {
          from: week.start.toString(),
          to: week.end.toString(),
        });
        const own = runs.filter((r) => r.userId === 'u1');
        for (const variant of [
          goal,
          { ...goal, stakeAmountCents: 0 },
          { ...goal, type: 'count' as const },
          { ...goal, type: 'count' as const, stakeAmountCents: 0 },
        ]) {
          expect(goalProgress(variant, selected)).toBe(goalProgress(variant, own));
        }
        // Many weeks of two users asked at once (as a projection batch does) get each its own runs: the same
        // figure as over all of that user's runs, for the week before, the week, and the week after.
        const weeks = [-7, 0, 7].flatMap((days) =>
          (['u1', 'u2'] as const).map((userId) => ({
            key: `${userId}${days}`,
            userId,
            weekStart: Temporal.PlainDate.from(goal.weekStart).add({ days }).toString(),
          })),
        );
        const batch = await runsAroundWeeks(
          database.db,
          table,
          weeks.map((w) => {
            const range = weekStartingOn(w.weekStart, goal.timeZone);
            return { key: w.key, userId: w.userId, from: range.start.toString(), to: range.end.toString() };
          }),
        );
        for (const w of weeks) {
          const details = { ...goal, userId: w.userId, weekStart: w.weekStart };
          const all = runs.filter((r) => r.userId === w.userId);
          expect(goalProgress(details, batch.get(w.key) ?? [])).toBe(goalProgress(details, all));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  }, 300_000);
});
