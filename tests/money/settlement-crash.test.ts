import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goalDecider } from '../../domain/goal/decide.ts';
import type { GoalCommand } from '../../domain/goal/commands.ts';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import type { ProcessManager } from '../../app-server/process/process-manager.ts';
import { createStakeSettlementProcess } from '../../app-server/process/stakes/stake-settlement-process.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';
import { runUntilQuiet } from './crash-run.ts';
import { CrashPlan, faultyGateway, seededRandom } from './faulty-gateway.ts';
import { audit, localGateway, saveCard } from './money-fixtures.ts';

const POINTS = Number(process.env.CRASH_POINTS ?? 120);
const SEED = Number(process.env.CRASH_SEED ?? 20261116);
const WEEK_MS = 7 * 24 * 3_600_000;

// Each point is one week: two staked goals (a random card, charity and fate: met, missed or canceled), the hold
// run and the settlement run, each killed at seeded random steps (before or after a provider call, before or after
// the outcome is recorded) and run again until quiet. Afterwards the audit and the gateway's own records must agree.
describe.each(databaseTargets().slice(0, 1))('settlement killed at seeded random points on %s', (target) => {
  let rt: TestRuntime;
  let users: { user: TestUser; pm: string }[] = [];
  const plan = new CrashPlan();
  let stakes: ProcessManager;
  const fates = new Map<string, 'met' | 'missed' | 'canceled'>();

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z' });
    const mc = await createTestUser(rt, 'crash-mc');
    const visa = await createTestUser(rt, 'crash-visa');
    users = [
      { user: mc, pm: await saveCard(rt, mc, 'pm_card_mastercard') },
      { user: visa, pm: await saveCard(rt, visa, 'pm_card_visa') },
    ];
    stakes = createStakeSettlementProcess({ gateway: faultyGateway(localGateway(rt), plan), faults: plan.faults });
  }, 60_000);
  afterAll(() => rt?.close());

  const goal = (goalId: string, command: GoalCommand) =>
    executeCommand(rt.store, goalDecider, `goal-${goalId}`, command, {
      actorId: 'test',
      correlationId: 'crash-test',
      now: rt.clock.now(),
      newEventId: () => randomUUID(),
    });
  const instant = () => Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime());

  const untilQuiet = () => runUntilQuiet(rt, stakes);

  it(`survives ${POINTS} weeks of crashes with no double capture and no lost release`, async () => {
    const random = seededRandom(SEED);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    for (let point = 0; point < POINTS; point++) {
      const monday = new Date(Date.parse('2026-11-16T15:00:00Z') + point * WEEK_MS);
      rt.clock.set(monday);
      const ids: string[] = [];
      for (const { user, pm } of users) {
        const goalId = randomUUID();
        ids.push(goalId);
        fates.set(goalId, pick(['met', 'missed', 'canceled'] as const));
        await goal(goalId, {
          type: 'CreateGoal',
          goalId,
          userId: user.id,
          goalType: 'count',
          targetValue: 2,
          unit: 'km',
          stakeAmountCents: pick([500, 1000, 2000, 5000, 10000]),
          charityId: pick([null, 'givedirectly', 'st-jude']),
          paymentMethodId: pm,
          timeZone: pick(['America/New_York', 'Pacific/Honolulu', 'Asia/Tokyo']),
          start: 'this_week',
          now: instant(),
        });
      }
      // The hold run, killed at random steps.
      plan.arm([1 + Math.floor(random() * 4), 5 + Math.floor(random() * 6)]);
      await untilQuiet();
      rt.clock.advance(3 * 3_600_000);
      for (const goalId of ids) {
        const fate = fates.get(goalId);
        if (fate === 'met') await goal(goalId, { type: 'RecordProgress', progress: 2, now: instant() });
        if (fate === 'canceled')
          await goal(goalId, { type: 'CancelGoal', userId: users[ids.indexOf(goalId)]!.user.id, now: instant() });
      }
      plan.arm([1 + Math.floor(random() * 8)]);
      await untilQuiet();
      // The settlement run: the Monday after, late enough for every zone used here (Honolulu ends 10:00 UTC).
      rt.clock.set(new Date(monday.getTime() + WEEK_MS - 4 * 3_600_000));
      plan.arm([1 + Math.floor(random() * 4), 5 + Math.floor(random() * 4), 9 + Math.floor(random() * 8)]);
      await untilQuiet();
    }
    console.log(`injected crashes: ${plan.crashes} over ${POINTS} weeks (seed ${SEED})`);
    // The issue asks for 200 or more crash points (a shorter CRASH_POINTS run is for debugging).
    expect(plan.crashes).toBeGreaterThanOrEqual(POINTS >= 120 ? 200 : 0);

    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    expect(report.openReleases).toEqual([]);
    expect(report.stakes).toHaveLength(POINTS * 2);

    // The gateway's own records: money taken at most once per stake, exactly when the goal was not met, and no
    // hold left blocking a card.
    const { rows } = await sql<{ goal_id: string; taken: number; blocked: number; received: number }>`
      SELECT metadata->>'goalId' AS goal_id,
             count(*) FILTER (WHERE amount_received > 0)::int AS taken,
             count(*) FILTER (WHERE status = 'requires_capture')::int AS blocked,
             COALESCE(sum(amount_received), 0)::int AS received
      FROM payments_local_payment_intents GROUP BY 1`.execute(rt.database.db);
    const byGoal = new Map(rows.map((r) => [r.goal_id, r]));
    let doubleCaptures = 0;
    let lostReleases = 0;
    let wrong = 0;
    for (const [goalId, fate] of fates) {
      const r = byGoal.get(goalId) ?? { taken: 0, blocked: 0, received: 0 };
      if (r.taken > 1) doubleCaptures += 1;
      if (r.blocked > 0) lostReleases += 1;
      if ((fate === 'met') !== (r.taken === 0)) wrong += 1;
    }
    expect({ doubleCaptures, lostReleases, wrong }).toEqual({ doubleCaptures: 0, lostReleases: 0, wrong: 0 });
    const ledger = report.stakes.reduce((sum, s) => sum + s.capturedCents, 0);
    expect(ledger).toBe(rows.reduce((sum, r) => sum + r.received, 0));
  }, 600_000);
});
