import { loadConfigOrExit } from './config-or-exit.ts';
import { createRuntime } from './runtime.ts';
import { surviveDatabaseFaults } from './survive-database-faults.ts';

/**
 * Unless WORKER_LINGER_MS says otherwise: alone on its process, the worker hears of each append at once and would apply
 * each run in transactions of its own; waiting this long after a short batch gathers several (docs/PERFORMANCE.md,
 * "The worker's linger"). A request that waits for read models ends the linger at once (process/read-models-wanted.ts),
 * so the linger delays only what nobody waits for: other users' feeds and leaderboards, XP, a stake's hold.
 */
const DEDICATED_LINGER_MS = 250;

/**
 * The worker process of a scaled-out deployment: projections and process managers, no HTTP. API replicas run with
 * RUN_WORKERS=false and stay stateless. Several workers may run: each projection batch locks its checkpoint row,
 * so a batch is applied once whichever worker takes it.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const runtime = await createRuntime({ ...config, WORKER_LINGER_MS: config.WORKER_LINGER_MS ?? DEDICATED_LINGER_MS });
  surviveDatabaseFaults(runtime.logger);
  await runtime.startWorkers();
  runtime.logger.info({ database: runtime.database.kind }, 'StrideStake worker running');
  const shutdown = async (signal: string) => {
    runtime.logger.info({ signal }, 'worker shutting down');
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Worker start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
