import { runApiBench } from './api/api-bench.ts';

// `npm run bench:api`: the API as users load it, on PostgreSQL, beside bare Hono and bare Hono + pg (docs/PERFORMANCE.md).
await runApiBench();
