import { runStoreBench } from './lib/store-bench.ts';

// `npm run bench`: every benchmark, each printing its figures beside a baseline measured in the same run.
// Targets are printed, never asserted: wall-clock numbers depend on the machine.
process.stdout.write('\n## Event store (ours vs raw PostgreSQL vs Emmett 0.42)\n');
await runStoreBench();
