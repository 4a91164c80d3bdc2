import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../app-server/db/database.ts';
import { type ChallengeMember, challengeFigures, type ChallengeRun } from '../../domain/stats/challenges.ts';
import { challengeRuns } from '../../projections/groups/group-stats-queries.ts';
import { refreshRunRecords } from '../../projections/runs/run-records.ts';
import { runsProjector } from '../../projections/runs/runs-projector.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

const TABLES = { runs: 'runs', run_records: 'run_records' };

/*
 * GET /groups/{id}/challenges reads only the runs the figures can use (challengeRuns: the week's runs and each
 * member's fastest run over 5 km and over 10 km) instead of every run the members ever made. The figures must not
 * change: challengeFigures over the runs SQL picks equals challengeFigures over all the runs the viewer may see.
 * Distances cluster at the 5 km and 10 km edges, where SQL and JavaScript rounding could disagree.
 */

const WEEK = { from: '2026-11-16T05:00:00.000Z', to: '2026-11-23T05:00:00.000Z' };
const spanStartMs = Date.parse(WEEK.from) - 30 * 86_400_000;
const spanMs = Date.parse(WEEK.to) - spanStartMs + 2 * 86_400_000;
const USERS = ['u1', 'u2', 'u3', 'outsider'] as const;
const GROUP = 'g1';
const VIEWER = 'u1';

interface RunShape {
  readonly user: (typeof USERS)[number];
  readonly startOffsetMin: number;
  readonly distanceKm: number;
  readonly durationSec: number;
  readonly source: 'gps' | 'strava';
  readonly verdict: 'verified' | 'unverified' | 'rejected';
}

const runShape: fc.Arbitrary<RunShape> = fc.record({
  user: fc.constantFrom(...USERS),
  startOffsetMin: fc.oneof(
    fc.integer({ min: 0, max: Math.floor(spanMs / 60_000) }),
    // Near the week's start and end.
    fc.integer({ min: 30 * 1440 - 30, max: 30 * 1440 + 30 }),
    fc.integer({ min: 37 * 1440 - 30, max: 37 * 1440 + 30 }),
  ),
  distanceKm: fc.oneof(
    fc.integer({ min: 0, max: 2500 }).map((h) => h / 100),
    fc.constantFrom(4.99, 4.994, 4.995, 4.996, 5, 5.001, 9.99, 9.994, 9.995, 9.996, 10, 10.001),
    fc.double({ min: 4.98, max: 5.02, noNaN: true }),
    fc.double({ min: 9.98, max: 10.02, noNaN: true }),
  ),
  durationSec: fc.integer({ min: 0, max: 6 * 3600 }),
  source: fc.constantFrom('gps' as const, 'gps' as const, 'strava' as const),
  verdict: fc.constantFrom('verified' as const, 'unverified' as const, 'rejected' as const),
});

const members: ChallengeMember[] = ['u1', 'u2', 'u3'].map((id, i) => ({
  user_id: id,
  display_name: `Runner ${id}`,
  current_streak: i,
  longest_streak: i + 1,
}));

describe('challenge figures over the runs SQL picks equal the figures over every visible run', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openMemoryDatabase();
    // The runs read model's own tables: runs, and each user's fastest runs (run-records.ts).
    await runsProjector.createTables(database.db, TABLES);
    await sql`CREATE TABLE group_members (group_id text NOT NULL, user_id text NOT NULL)`.execute(database.db);
    await sql`INSERT INTO group_members VALUES (${GROUP}, 'u1'), (${GROUP}, 'u2'), (${GROUP}, 'u3')`.execute(
      database.db,
    );
  }, 60_000);
  afterAll(() => database?.close());

  it('for any runs of members and non-members, synced or tracked, rejected or not (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(runShape, { maxLength: 30 }), async (shapes) => {
        const rows = shapes.map((shape, i) => ({
          id: `r${String(i).padStart(3, '0')}`,
          user_id: shape.user,
          source: shape.source,
          verdict: shape.verdict,
          started_at: new Date(spanStartMs + shape.startOffsetMin * 60_000).toISOString(),
          distance_km: shape.distanceKm,
          duration_sec: shape.durationSec,
        }));
        await sql`DELETE FROM runs`.execute(database.db);
        if (rows.length > 0) {
          await sql`
            INSERT INTO runs (id, user_id, source, verdict, started_at, ended_at, distance_km, duration_sec,
              verification, recorded_at)
            SELECT id, user_id, source, verdict, started_at, started_at, distance_km, duration_sec, '{}'::jsonb,
              started_at
            FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
              AS r(id text, user_id text, source text, verdict text, started_at timestamptz,
                   distance_km double precision, duration_sec integer)`.execute(database.db);
        }
        // As the runs projection keeps them: worked out for the users whose runs changed (here, all of them), in
        // two steps, so a user's records are replaced, not only added to.
        await refreshRunRecords(database.db, TABLES, ['u1', 'u2']);
        await refreshRunRecords(database.db, TABLES, USERS);
        // Everything the viewer may see, by the visibility rule of visibleRuns (group-stats-queries.ts).
        const visible: ChallengeRun[] = rows
          .filter((r) => r.user_id !== 'outsider' && r.verdict !== 'rejected')
          .filter((r) => r.source === 'gps' || r.user_id === VIEWER)
          .map((r) => ({
            user_id: r.user_id,
            distance_km: r.distance_km,
            duration_sec: r.duration_sec,
            started_at: r.started_at,
          }));
        const picked = await challengeRuns(database.db, GROUP, VIEWER, WEEK);
        expect(challengeFigures(members, picked, WEEK)).toEqual(challengeFigures(members, visible, WEEK));
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  }, 300_000);
});
