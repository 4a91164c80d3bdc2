import { runStoreBench } from './lib/store-bench.ts';

// `npm run bench:store`: ours vs raw PostgreSQL vs Emmett 0.42 on one PostgreSQL server (DATABASE_URL).
await runStoreBench();
