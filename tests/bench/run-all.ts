import { runApiBench } from './api/api-bench.ts';
import { runStoreBench } from './lib/store-bench.ts';
import { runWebBench } from './web/web-bench.ts';

// `npm run bench`: every benchmark, each printing its figures beside a baseline measured in the same run.
// Targets are printed, never asserted: wall-clock numbers depend on the machine (the web app's byte budgets are asserted
// by tests/e2e/bundle-budget.test.ts). BENCH_WEB=0 skips the web bench, BENCH_STORE=0 the store bench.
if (process.env.BENCH_WEB !== '0') {
  process.stdout.write('\n## Web app first load (bundle budgets, largest contentful paint at 390×844, 4× CPU)\n');
  await runWebBench();
}
process.stdout.write('\n## API as users load it (seeded logs, product server process, autocannon)\n');
await runApiBench();
if (process.env.BENCH_STORE !== '0') {
  process.stdout.write('\n## Event store (ours vs raw PostgreSQL vs Emmett 0.42)\n');
  await runStoreBench();
}
