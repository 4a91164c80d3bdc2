import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { Temporal } from 'temporal-polyfill';
import type { LocalPaymentGateway } from '../../../app-server/adapters/payments/local/local-gateway.ts';
import { ManualClock } from '../../../app-server/clock.ts';
import { executeCommand } from '../../../app-server/commands/execute-command.ts';
import { createGoal } from '../../../app-server/commands/goals/create-goal.ts';
import { ensureCustomerId } from '../../../app-server/commands/stakes/payment-customer.ts';
import type { Config } from '../../../app-server/config.ts';
import { openDatabase } from '../../../app-server/db/database.ts';
import { createRuntime, type Runtime } from '../../../app-server/runtime.ts';
import { goalDecider } from '../../../domain/goal/decide.ts';
import { createGoalBodySchema } from '../../../domain/validation/goal.ts';
import { settle } from '../../support/users.ts';
import { inParallel } from './seed/in-parallel.ts';
import { SEED_PASSWORD } from './seed/seed-people.ts';

/** The week the settlement fixture lives in (a fixed past week: the runtime's clock is a manual one). */
const MONDAY = '2026-11-02';
const WEEK_STARTED = `${MONDAY}T13:00:00Z`;
/** Mid-week, when half the runners complete their goal (the hold is released then, before settlement). */
const MIDWEEK = '2026-11-05T18:00:00Z';
/** The Monday after, late enough for every zone used (Monday 00:00 New York and each zone's week end passed). */
export const SETTLEMENT = '2026-11-09T12:00:00Z';
const ZONES = ['America/New_York', 'Europe/Paris', 'America/Los_Angeles', 'Asia/Tokyo'] as const;
const CARDS = ['pm_card_mastercard', 'pm_card_visa'] as const;

export async function openRuntime(config: Config, databaseUrl: string, now: string) {
  const clock = new ManualClock(now);
  const database = await openDatabase({ databaseUrl, poolSize: 12 });
  const runtime = await createRuntime(
    { ...config, DATABASE_URL: databaseUrl, PAYMENTS_LOCAL_GATEWAY: true },
    { clock, database, logger: pino({ level: 'silent' }) },
  );
  if (runtime.payments?.kind !== 'local') throw new Error('the settlement bench needs the local payment gateway');
  return {
    runtime,
    clock,
    gateway: runtime.payments as LocalPaymentGateway,
    async close() {
      await runtime.close();
      await database.close();
    },
  };
}

/** Stake actions still to perform plus stakes still being settled: 0 when the money has all moved. */
async function moneyStillMoving(runtime: Runtime): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT (SELECT count(*) FROM stake_actions WHERE done_at IS NULL)::int
         + (SELECT count(*) FROM stake_process_stakes
            WHERE status IN ('capturing', 'charging') OR awaiting_settlement)::int AS n`.execute(runtime.database.db);
  return rows[0]!.n;
}

/** Runs the workers as production does (handlers, then the clock's tick) until no money is left moving. */
export async function runUntilQuiet(runtime: Runtime, gateway: LocalPaymentGateway): Promise<void> {
  for (let round = 0; round < 50; round++) {
    await gateway.sweepExpiredHolds();
    await settle(runtime, 3_600_000);
    await runtime.processes.tick();
    await settle(runtime, 3_600_000);
    if ((await moneyStillMoving(runtime)) === 0) return;
  }
  throw new Error('the stake process did not become quiet');
}

/**
 * What autovacuum would do as the tables grow (the servers these benches run on often have it off, as CI does). Without
 * statistics the reactors' reads of many streams at once were planned as scans of the whole log (about 7 s each at
 * 800,000 events) and the 100,000-goal fixture took 49 minutes to seed. Every ANALYZE_EVERY goals created, and
 * between the seed's phases.
 */
const ANALYZE_EVERY = 10_000;
const analyze = (runtime: Runtime) => sql`ANALYZE`.execute(runtime.database.db);

/**
 * The settlement fixture: `goals` runners, each with a saved card (the local gateway's test cards) and a staked
 * run-count goal for one week, created through the product's own goal command with the stake opened in the same
 * transaction; holds placed by the stake process; half the goals completed mid-week (their holds released).
 */
export async function seedSettlementFixture(
  config: Config,
  databaseUrl: string,
  goals: number,
  say: (l: string) => void,
) {
  const { runtime, clock, gateway, close } = await openRuntime(config, databaseUrl, WEEK_STARTED);
  const started = performance.now();
  try {
    await runtime.startWorkers();
    const passwordHash = await runtime.auth.hasher.hash(SEED_PASSWORD);
    const goalIds: string[] = [];
    const create = (indexes: number[]) =>
      inParallel(indexes, 10, async (i) => {
        const timeZone = ZONES[i % ZONES.length]!;
        const email = `staker-${i}@bench.stridestake.test`;
        const user = await runtime.auth.users.register({
          email,
          passwordHash,
          displayName: `Staker ${i}`,
          timezone: timeZone,
          metadata: {},
          correlationId: randomUUID(),
        });
        const now = clock.now();
        const customerId = await ensureCustomerId(runtime.database.db, gateway, user.id, now);
        const { setupIntentId } = await gateway.createSetupIntent({ customerId });
        const { paymentMethodId } = await gateway.confirmSetupIntent({ setupIntentId, card: CARDS[i % CARDS.length]! });
        const body = createGoalBodySchema.parse({
          type: 'count',
          target_value: 3,
          stake_amount_cents: [500, 1000, 2000, 5000][i % 4],
          charity_id: i % 3 === 0 ? null : 'givedirectly',
          payment_method_id: paymentMethodId,
        });
        const context = {
          store: runtime.store,
          database: runtime.database,
          userId: user.id,
          now,
          correlationId: randomUUID(),
        };
        goalIds[i] = (await createGoal(context, body, timeZone)).goalId;
      });
    for (let from = 0; from < goals; from += ANALYZE_EVERY) {
      await create(Array.from({ length: Math.min(ANALYZE_EVERY, goals - from) }, (_, k) => from + k));
      await analyze(runtime);
    }
    say(`  ${goals} staked goals created in ${Math.round((performance.now() - started) / 1000)} s; placing holds…`);
    await runUntilQuiet(runtime, gateway);
    await analyze(runtime);
    clock.set(MIDWEEK);
    const now = Temporal.Instant.from(MIDWEEK);
    await inParallel(
      goalIds.filter((_, i) => i % 2 === 0),
      10,
      async (goalId) => {
        await executeCommand(
          runtime.store,
          goalDecider,
          `goal-${goalId}`,
          { type: 'RecordProgress', progress: 3, now },
          {
            actorId: null,
            correlationId: randomUUID(),
            now: clock.now(),
            newEventId: () => randomUUID(),
          },
        );
      },
    );
    await runUntilQuiet(runtime, gateway);
    say(`  settlement fixture ready in ${Math.round((performance.now() - started) / 1000)} s`);
  } finally {
    await close();
  }
}
