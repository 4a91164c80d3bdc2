import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { auditStakes, readWholeLog } from '../../../app-server/audit/stake-audit.ts';
import type { Config } from '../../../app-server/config.ts';
import { settle } from '../../support/users.ts';
import { postgresTicks, TICK_MS } from './lib/process-cpu.ts';
import { openRuntime, runUntilQuiet, SETTLEMENT } from './settlement.ts';

// Kept apart from settlement.ts: the cached fixtures are named by a hash of that file (their seed), and changing how
// a settlement is measured must not make a 100,000-goal fixture (most of an hour to seed) look stale.

/** What the settlement measurement found. */
export interface SettlementFigures {
  readonly goals: number;
  readonly seconds: number;
  /** CPU time of the bench process (the API's workers run in it) from the first tick to the last. */
  readonly nodeCpuSeconds: number;
  /** CPU time of every `postgres` process of this machine in that window (0 when the server runs elsewhere). */
  readonly postgresCpuSeconds: number;
  readonly violations: number;
  readonly openReleases: number;
  readonly settledStakes: number;
}

/**
 * Times settlement on a clone of the fixture: the clock moves to the Monday after the week, and the product's
 * workers run as in production (goal clock closes the missed goals, the stake process captures or charges them
 * through the local gateway) until no money is left moving. Then the auditor replays the whole log.
 * With `cpuProfile` set, writes a CPU profile of the same window there (for `node --cpu-prof`'s tools).
 */
export async function measureSettlement(
  config: Config,
  databaseUrl: string,
  goals: number,
  cpuProfile?: string,
): Promise<SettlementFigures> {
  const { runtime, clock, gateway, close } = await openRuntime(config, databaseUrl, SETTLEMENT);
  try {
    await runtime.startWorkers();
    await settle(runtime, 3_600_000);
    clock.set(SETTLEMENT);
    const profiler = cpuProfile ? await startProfiler() : null;
    const cpuBefore = process.cpuUsage();
    const postgresBefore = postgresTicks();
    const started = performance.now();
    await runUntilQuiet(runtime, gateway);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const postgresCpuSeconds = ((postgresTicks() - postgresBefore) * TICK_MS) / 1000;
    if (profiler && cpuProfile) writeFileSync(cpuProfile, JSON.stringify(await profiler.stop()));
    const report = await auditStakes(readWholeLog(runtime.store));
    return {
      goals,
      seconds,
      nodeCpuSeconds: (cpu.user + cpu.system) / 1e6,
      postgresCpuSeconds,
      violations: report.violations.length,
      openReleases: report.openReleases.length,
      settledStakes: report.stakes.length,
    };
  } finally {
    await close();
  }
}

async function startProfiler() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}
