import { runWebBench } from './web/web-bench.ts';

// `npm run bench:web`: the web app's first-load JavaScript and paint beside their budgets (tests/bench/web/).
await runWebBench();
