import { runSettlement } from './api/api-bench.ts';
import { options, say } from './api/lib/bench-options.ts';

// `npm run bench:settlement`: only the settlement row of `npm run bench:api` (BENCH_SETTLE_GOALS staked goals settled
// by the product's workers on the local gateway, then the stake audit), for working on settlement alone.
const figures = await runSettlement(options.settleGoals);
const rate = figures.goals / figures.seconds;
say(
  `settlement of ${figures.goals.toLocaleString('en-US')} staked goals: ${figures.seconds.toFixed(1)} s ` +
    `(${Math.round(rate)} goals/s; 100,000 would take ~${Math.round(100_000 / rate)} s; ` +
    `CPU: ${figures.nodeCpuSeconds.toFixed(1)} s in the bench process, ${figures.postgresCpuSeconds.toFixed(1)} s in PostgreSQL); ` +
    `audit: ${figures.violations} violations, ${figures.openReleases} open releases over ${figures.settledStakes} stakes`,
);
