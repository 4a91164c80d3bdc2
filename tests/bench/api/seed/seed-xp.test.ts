import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoal } from '../../../../app-server/commands/goals/create-goal.ts';
import { logRun } from '../../../../app-server/commands/runs/run-commands.ts';
import { createGoalBodySchema } from '../../../../domain/validation/goal.ts';
import { runBodySchema } from '../../../../domain/validation/run.ts';
import type { GoalCreated } from '../../../../domain/goal/events.ts';
import type { RunRecorded } from '../../../../domain/run/events.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../../../support/test-runtime.ts';
import { createTestUser, runBody, settle } from '../../../support/users.ts';
import { HistoryWriter } from './history-writer.ts';
import { seedGoalWeekXp, seedRunXp } from './seed-xp.ts';

/** Events without their timestamps (the seed and the process run at different instants). */
const timeless = (events: readonly { type: string; data: unknown }[]) =>
  events.map(({ type, data }) => ({
    type,
    data: Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([key]) => !key.endsWith('At'))),
  }));

// The seed writes the history's XP itself instead of waiting hours for the xp-awards process (seed-xp.ts): this
// proves it writes what that process writes, for a run and for the goal week the run completes.
describe.each(databaseTargets())('the seed’s XP on %s', (target) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
  });
  afterAll(() => rt?.close());

  it('is the XP the product’s xp-awards process pays for the same run and completed week', async () => {
    const user = await createTestUser(rt, 'xp-seed', 'Europe/Paris');
    // The routes' own command functions (the routes would also wait for the read models, which says nothing here).
    const context = {
      store: rt.store,
      database: rt.database,
      userId: user.id,
      now: rt.clock.now(),
      correlationId: 'xp-seed',
    };
    const goal = await createGoal(
      context,
      createGoalBodySchema.parse({ type: 'distance', target_value: 5 }),
      'Europe/Paris',
    );
    const run = await logRun(context, runBodySchema.parse(runBody('2026-11-18T07:00:00Z', 6)));
    // On a shared PostgreSQL server another database's open transaction can hold the log's read horizon back for a
    // moment (pg_snapshot_xmin is cluster-wide): settle again until the week's XP is there, within a minute.
    const paidXp = async () =>
      (await rt.store.readStream(`xp-${user.id}`)).filter(
        (e) => (e.data as { sourceType?: string }).sourceType !== 'badge',
      );
    let paid = await paidXp();
    for (let round = 0; round < 60 && !paid.some((e) => e.type === 'WeekSettled'); round++) {
      await settle(rt, 120_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      paid = await paidXp();
    }

    const recorded = (await rt.store.readStream(`run-${run.runId}`))[0] as unknown as RunRecorded;
    const created = (await rt.store.readStream(`goal-${goal.goalId}`))[0] as unknown as GoalCreated;
    const writer = new HistoryWriter(rt.store, rt.database.db);
    const now = rt.clock.now();
    const seeded = [
      ...seedRunXp(writer, recorded.data, 'Europe/Paris', now),
      ...seedGoalWeekXp(writer, created.data, 'completed', now),
    ];
    expect(paid.length).toBeGreaterThanOrEqual(2);
    expect(timeless(seeded)).toEqual(timeless(paid));
  });
});
