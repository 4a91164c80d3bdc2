import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentGateway } from '../../app-server/adapters/payments/payment-gateway.ts';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { AttemptMarks } from '../../app-server/process/stakes/stake-action-row.ts';
import { createStakeSettlementProcess } from '../../app-server/process/stakes/stake-settlement-process.ts';
import { goalDecider } from '../../domain/goal/decide.ts';
import { runUntilQuiet } from '../money/crash-run.ts';
import { audit, localGateway, saveCard, stakedGoal } from '../money/money-fixtures.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser } from '../support/users.ts';

/*
 * The attempt mark of a stake action must be committed before its provider call, so that a run that crashed after the
 * call finds it (and re-fetches the PaymentIntent, or asks again with the same key). The action worker now writes the
 * marks of actions called side by side together (AttemptMarks, a group commit). Here the provider checks, at every
 * call that changes money, that the action's mark is already visible from another statement: through holds, releases
 * and settlement of eight stakes worked in parallel lanes.
 */

const MONEY_CALLS = ['placeHold', 'captureHold', 'releaseHold', 'chargeOffSession', 'refundPayment'] as const;

describe.each(databaseTargets())('attempt marks on %s', (target) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z' });
  }, 60_000);
  afterAll(() => rt?.close());

  /** The local gateway, checking before each money call that the call's key is marked attempted. */
  function checkingGateway(calls: string[], unmarked: string[]): PaymentGateway {
    const real = localGateway(rt);
    const checking = Object.create(real) as PaymentGateway;
    for (const name of MONEY_CALLS) {
      const call = (real[name] as (input: { idempotencyKey: string }) => Promise<unknown>).bind(real);
      Object.defineProperty(checking, name, {
        value: async (input: { idempotencyKey: string }) => {
          const { rows } = await sql<{ marked: boolean }>`
            SELECT attempted_at IS NOT NULL AS marked FROM stake_actions
            WHERE idempotency_key = ${input.idempotencyKey}`.execute(rt.database.db);
          calls.push(`${name} ${input.idempotencyKey}`);
          if (rows[0]?.marked !== true) unmarked.push(`${name} ${input.idempotencyKey}`);
          return call(input);
        },
      });
    }
    return checking;
  }

  it('every money call of stakes worked side by side finds its mark committed', async () => {
    const calls: string[] = [];
    const unmarked: string[] = [];
    const stakes = createStakeSettlementProcess({ gateway: checkingGateway(calls, unmarked) });
    const goals: { goalId: string; met: boolean }[] = [];
    for (let i = 0; i < 8; i++) {
      const user = await createTestUser(rt, `marks-${i}`);
      const pm = await saveCard(rt, user, i % 2 === 0 ? 'pm_card_mastercard' : 'pm_card_visa');
      goals.push({
        goalId: await stakedGoal(rt, user, { pm, cents: [500, 1000, 2000, 5000][i % 4]! }),
        met: i % 3 === 0,
      });
    }
    await runUntilQuiet(rt, stakes); // the holds
    rt.clock.advance(3 * 3_600_000);
    for (const { goalId, met } of goals) {
      if (!met) continue;
      await executeCommand(
        rt.store,
        goalDecider,
        `goal-${goalId}`,
        { type: 'RecordProgress', progress: 2, now: Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime()) },
        { actorId: 'test', correlationId: 'marks', now: rt.clock.now(), newEventId: () => randomUUID() },
      );
    }
    await runUntilQuiet(rt, stakes); // the releases of met goals
    rt.clock.set('2026-11-23T11:00:00Z');
    await runUntilQuiet(rt, stakes); // settlement: captures, and charges where a Visa hold lapsed
    const kinds = new Set(calls.map((c) => c.split(' ')[0]));
    expect(kinds).toEqual(new Set(['placeHold', 'releaseHold', 'chargeOffSession', 'captureHold']));
    expect(calls.length).toBeGreaterThanOrEqual(16);
    expect(unmarked).toEqual([]);
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    expect(report.openReleases).toEqual([]);
  }, 120_000);

  it('marks asked for together are each committed when they resolve; the first mark of a row stays', async () => {
    const stakeId = randomUUID();
    const keys = Array.from({ length: 10 }, (_, i) => `marks-unit-${stakeId}-${i}`);
    for (const key of keys) {
      await sql`
        INSERT INTO stake_actions (idempotency_key, stake_id, kind, requested_at, next_try_at)
        VALUES (${key}, ${stakeId}, 'hold', now(), now())`.execute(rt.database.db);
    }
    const first = new Date('2026-11-16T16:00:00Z');
    const marks = new AttemptMarks(rt.database.db, first);
    const seen = await Promise.all(
      keys.map(async (key) => {
        await marks.mark(key);
        const { rows } = await sql<{ at: Date | string | null }>`
          SELECT attempted_at AS at FROM stake_actions WHERE idempotency_key = ${key}`.execute(rt.database.db);
        return rows[0]?.at === null || rows[0]?.at === undefined ? null : new Date(rows[0].at).toISOString();
      }),
    );
    expect(seen).toEqual(keys.map(() => first.toISOString()));
    await new AttemptMarks(rt.database.db, new Date('2026-11-16T17:00:00Z')).mark(keys[0]!);
    const { rows } = await sql<{ at: Date | string }>`
      SELECT attempted_at AS at FROM stake_actions WHERE idempotency_key = ${keys[0]!}`.execute(rt.database.db);
    expect(new Date(rows[0]!.at).toISOString()).toBe(first.toISOString());
  });
});
