import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import type { ProcessManager } from '../../app-server/process/process-manager.ts';
import { createStakeSettlementProcess } from '../../app-server/process/stakes/stake-settlement-process.ts';
import { goalDecider } from '../../domain/goal/decide.ts';
import { stakeDecider } from '../../domain/stake/decide.ts';
import { stakeIdForGoal } from '../../domain/stake/from-goal.ts';
import { streams } from '../../domain/shared/streams.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser } from '../support/users.ts';
import { runUntilQuiet } from './crash-run.ts';
import { CrashPlan, faultyGateway, seededRandom } from './faulty-gateway.ts';
import { audit, localGateway, saveCard } from './money-fixtures.ts';

const POINTS = Number(process.env.REFUND_CRASH_POINTS ?? 24);
const SEED = Number(process.env.CRASH_SEED ?? 20261126);
const WEEK_MS = 7 * 24 * 3_600_000;

// Issue 25 item 3, "one provider refund, exactly once": each point is a missed staked week, collected at settlement,
// then refunded for late evidence while the stake process is killed at seeded random steps around the refund (before
// or after the provider call, before or after StakeRefunded is recorded) and run again until quiet. Afterwards the
// gateway holds exactly one refund of the whole stake per stake, and the audit is clean.
describe.each(databaseTargets().slice(0, 1))('refunds killed at seeded random points on %s', (target) => {
  let rt: TestRuntime;
  let stakes: ProcessManager;
  const plan = new CrashPlan();
  let userId = '';
  let pm = '';

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z' });
    const user = await createTestUser(rt, 'refund-crash');
    userId = user.id;
    pm = await saveCard(rt, user, 'pm_card_mastercard');
    stakes = createStakeSettlementProcess({ gateway: faultyGateway(localGateway(rt), plan), faults: plan.faults });
  }, 60_000);
  afterAll(() => rt?.close());

  const metadata = () => ({
    actorId: 'test',
    correlationId: 'refund-crash',
    now: rt.clock.now(),
    newEventId: () => randomUUID(),
  });
  const instant = () => Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime());

  const untilQuiet = () => runUntilQuiet(rt, stakes);

  it(`refunds ${POINTS} collected stakes exactly once each, whatever step dies`, async () => {
    const random = seededRandom(SEED);
    const goalIds: string[] = [];
    for (let point = 0; point < POINTS; point++) {
      const monday = new Date(Date.parse('2026-11-16T15:00:00Z') + point * WEEK_MS);
      rt.clock.set(monday);
      const goalId = randomUUID();
      goalIds.push(goalId);
      await executeCommand(
        rt.store,
        goalDecider,
        streams.goal(goalId),
        {
          type: 'CreateGoal',
          goalId,
          userId,
          goalType: 'count',
          targetValue: 2,
          unit: 'km',
          stakeAmountCents: [500, 1000, 2000][point % 3]!,
          charityId: point % 2 === 0 ? 'givedirectly' : null,
          paymentMethodId: pm,
          timeZone: 'America/New_York',
          start: 'this_week',
          now: instant(),
        },
        metadata(),
      );
      plan.arm([]);
      await untilQuiet();
      // The Monday after: the missed week is collected (captured from the hold).
      rt.clock.set(new Date(monday.getTime() + WEEK_MS - 4 * 3_600_000));
      await untilQuiet();
      // Three days later the evidence arrives; the refund runs with crashes.
      rt.clock.advance(3 * 24 * 3_600_000);
      await executeCommand(
        rt.store,
        stakeDecider,
        streams.stake(stakeIdForGoal(goalId)),
        { type: 'RefundForLateEvidence', evidenceRunId: `late-${point}`, now: instant() },
        metadata(),
      );
      plan.arm([1 + Math.floor(random() * 2), 3 + Math.floor(random() * 3)]);
      await untilQuiet();
    }
    console.log(`injected crashes: ${plan.crashes} over ${POINTS} refunds (seed ${SEED})`);
    expect(plan.crashes).toBeGreaterThanOrEqual(POINTS >= 24 ? 30 : 0);

    const { rows } = await sql<{ goal_id: string; refunds: number; refunded: number; received: number }>`
      SELECT pi.metadata->>'goalId' AS goal_id, count(r.id)::int AS refunds,
             COALESCE(sum(r.amount), 0)::int AS refunded, max(pi.amount_received)::int AS received
      FROM payments_local_payment_intents pi LEFT JOIN payments_local_refunds r ON r.payment_intent_id = pi.id
      WHERE pi.amount_received > 0 GROUP BY 1`.execute(rt.database.db);
    expect(rows).toHaveLength(POINTS);
    for (const row of rows)
      expect({ refunds: row.refunds, refunded: row.refunded }).toEqual({ refunds: 1, refunded: row.received });
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    const refundedStakes = report.stakes.filter((s) => goalIds.includes(s.goalId));
    for (const s of refundedStakes) {
      expect(s.history.filter((h) => h === 'StakeRefunded')).toHaveLength(1);
      expect(s.refundedCents).toBe(s.capturedCents);
    }
  }, 600_000);
});
