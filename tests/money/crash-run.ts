import { sql } from 'kysely';
import { goalLifecycleProcess } from '../../app-server/process/goal-lifecycle/goal-lifecycle-process.ts';
import type { ProcessManager } from '../../app-server/process/process-manager.ts';
import type { TestRuntime } from '../support/test-runtime.ts';
import { settle } from '../support/users.ts';
import { InjectedCrash } from './faulty-gateway.ts';
import { localGateway } from './money-fixtures.ts';

/**
 * Runs the goal clock and a (crash-injected) stake process, round after round, until no money is left moving: no
 * open stake action, nothing being captured or charged, nothing awaiting settlement. An InjectedCrash ends a round,
 * as a process dying would; the next round starts over. The crash tests (settlement, refunds) share it.
 */
export async function runUntilQuiet(rt: TestRuntime, stakes: ProcessManager): Promise<void> {
  for (let round = 0; round < 40; round++) {
    await localGateway(rt).sweepExpiredHolds();
    await settle(rt);
    const ctx = { db: rt.database.db, store: rt.store, now: rt.clock.now() };
    try {
      await goalLifecycleProcess.tick?.(ctx);
      await settle(rt);
      await stakes.tick?.(ctx);
    } catch (error) {
      if (!(error instanceof InjectedCrash)) throw error;
      continue;
    }
    await settle(rt);
    const { rows } = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM stake_actions WHERE done_at IS NULL)::int
           + (SELECT count(*) FROM stake_process_stakes
              WHERE status IN ('capturing', 'charging') OR awaiting_settlement)::int AS n`.execute(rt.database.db);
    if (rows[0]?.n === 0) return;
  }
  throw new Error('the stake process did not become quiet');
}
