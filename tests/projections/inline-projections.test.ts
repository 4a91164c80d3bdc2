import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInTransaction } from '../../app-server/commands/execute-command.ts';
import { createGoal, logRun } from '../api/gamification-fixtures.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/*
 * The runs and goals read models are inline (projections/engine/inline-projections.ts): whatever path appends a run
 * or goal event, the rows are there when the append returns. No worker runs here (workers off, nothing drained
 * except where a test runs the process managers itself), so each assertion fails if an append path bypasses the
 * mechanism: the store every path gets straight, inside a caller's transaction, and a process manager's append.
 */
describe.each(databaseTargets())('inline read models on %s', (target) => {
  let rt: TestRuntime;
  const goalOf = async (goalId: string) =>
    (
      await sql<{ status: string; progress: number }>`SELECT status, progress FROM goals WHERE id = ${goalId}`.execute(
        rt.database.db,
      )
    ).rows[0];
  const runIds = async (userId: string) =>
    (
      await sql<{ id: string }>`SELECT id FROM runs WHERE user_id = ${userId} ORDER BY id`.execute(rt.database.db)
    ).rows.map((r) => r.id);

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z', workers: false });
  }, 60_000);
  afterAll(() => rt?.close());

  it('has a run appended straight to the store, and its goal progress, when the append returns', async () => {
    const user = randomUUID();
    const goalId = randomUUID();
    await createGoal(rt, user, goalId, '2026-11-16');
    const runId = randomUUID();
    await logRun(rt, user, runId, 4, '2026-11-17T07:00:00Z');
    expect(await runIds(user)).toEqual([runId]);
    expect(await goalOf(goalId)).toMatchObject({ progress: 4 });
  });

  it('commits or rolls back the rows with the caller transaction that appended them', async () => {
    const user = randomUUID();
    const kept = randomUUID();
    const dropped = randomUUID();
    await executeInTransaction(rt.database, async (transaction) => {
      await rt.store.appendToStream(`run-${kept}`, [runEvent(rt, user, kept, 2)], { transaction });
    });
    await expect(
      executeInTransaction(rt.database, async (transaction) => {
        await rt.store.appendToStream(`run-${dropped}`, [runEvent(rt, user, dropped, 2)], { transaction });
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    expect(await runIds(user)).toEqual([kept]);
  });

  it("applies a process manager's appends too: the goal clock activates a goal and the read model says so", async () => {
    const user = randomUUID();
    const goalId = randomUUID();
    await createGoal(rt, user, goalId, '2026-11-16');
    await logRun(rt, user, randomUUID(), 11, '2026-11-17T08:00:00Z');
    expect(await goalOf(goalId)).toMatchObject({ status: 'upcoming' });
    // The goal-lifecycle process manager's clock appends GoalActivated (its week has begun) through its store.
    await rt.processes.tick();
    expect(await goalOf(goalId)).toMatchObject({ status: 'active', progress: 11 });
  });

  it('counts every one of many runs of one runner appended at once (none lost to a concurrent recompute)', async () => {
    const user = randomUUID();
    const goalId = randomUUID();
    await createGoal(rt, user, goalId, '2026-11-16');
    const runs = Array.from({ length: 8 }, (_, i) => ({
      id: randomUUID(),
      startedAt: `2026-11-1${6 + (i % 4)}T0${i}:00:00Z`,
    }));
    await Promise.all(runs.map((run) => logRun(rt, user, run.id, 0.5, run.startedAt)));
    expect(await runIds(user)).toEqual(runs.map((r) => r.id).sort());
    expect(await goalOf(goalId)).toMatchObject({ progress: 4 });
  });

  it('leaves the inline checkpoints to the engine: a rebuild gives the rows the appends made', async () => {
    const before = await sql<{ id: string }>`SELECT id FROM runs ORDER BY id`.execute(rt.database.db);
    const goalsBefore = await sql<{ id: string; progress: number }>`
      SELECT id, progress FROM goals ORDER BY id`.execute(rt.database.db);
    await rt.projections.rebuildAll(['runs', 'goals']);
    expect((await sql<{ id: string }>`SELECT id FROM runs ORDER BY id`.execute(rt.database.db)).rows).toEqual(
      before.rows,
    );
    const goalsAfter = await sql<{ id: string; progress: number }>`
      SELECT id, progress FROM goals ORDER BY id`.execute(rt.database.db);
    expect(goalsAfter.rows).toEqual(goalsBefore.rows);
  });
});

/* PostgreSQL only: on PGlite (one session) transactions never overlap, so no transaction is ever open behind another. */
describe.each(databaseTargets().filter((t) => t === 'postgres'))('rebuilding an inline read model on %s', (target) => {
  let rt: TestRuntime;
  const runIds = async (userId: string) =>
    (
      await sql<{ id: string }>`SELECT id FROM runs WHERE user_id = ${userId} ORDER BY id`.execute(rt.database.db)
    ).rows.map((r) => r.id);

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z', workers: false });
  }, 60_000);
  afterAll(() => rt?.close());

  it('a rebuild swapped in while an older transaction is open misses no run committed after that one began', async () => {
    const user = randomUUID();
    const runId = randomUUID();
    // An older transaction holds the log's horizon back: the run below commits after it began.
    let began!: () => void;
    let release!: () => void;
    const open = new Promise<void>((resolve) => (began = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const older = rt.database.db.transaction().execute(async (tx) => {
      await sql`SELECT pg_current_xact_id()`.execute(tx);
      began();
      await held;
    });
    await open;
    await logRun(rt, user, runId, 3, '2026-11-17T09:00:00Z');
    expect(await runIds(user)).toEqual([runId]);
    const rebuilt = rt.projections.rebuild('runs');
    setTimeout(release, 500);
    await rebuilt;
    await older;
    expect(await runIds(user)).toEqual([runId]);
  });
});

function runEvent(rt: TestRuntime, userId: string, runId: string, km: number) {
  return {
    type: 'RunRecorded',
    data: {
      runId,
      userId,
      source: 'gps',
      importId: null,
      startedAt: '2026-11-17T06:00:00Z',
      distanceKm: km,
      durationSec: Math.round(km * 330),
      positions: [],
      importFlags: null,
      notes: null,
      verification: { verdict: 'verified', reasons: [], trustedDistanceKm: km, policyVersion: 1 },
      recordedAt: rt.clock.now().toISOString(),
    },
    metadata: {
      eventId: randomUUID(),
      occurredAt: rt.clock.now().toISOString(),
      actorId: null,
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
    },
  };
}
