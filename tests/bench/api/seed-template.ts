import { template, largeShape } from './api-bench.ts';
import { options, say } from './lib/bench-options.ts';
import { inProcessConfig, productEnv } from './lib/product.ts';
import { ensureTemplate, seedHash } from './lib/template-cache.ts';
import { seedHistory } from './seed/seed-history.ts';
import { SMALL_LOG, seededMondays } from './seed/seed-shape.ts';

/*
 * `node tests/bench/api/seed-template.ts [users | bench]` builds (or finds) a seeded template and prints its name, for
 * `node tests/bench/api/profile.ts <template> "POST /runs"` (or cpu-cost.ts) without running the whole bench first:
 * - a number: a log of the small log's shape with that many users (default 100, the bench's own ≈11k-event log,
 *   seeded in about 15 s);
 * - `bench`: both of the bench's own templates, the large one with BENCH_LOG_USERS users (10,000 by default: the 1M-event
 *   log, about half an hour), so that a later `npm run bench` finds them cached.
 */
if (process.argv[2] === 'bench') {
  say(await template(SMALL_LOG));
  say(await template(largeShape()));
  process.exit(0);
}
const users = Number(process.argv[2] ?? SMALL_LOG.users);
const shape = users === SMALL_LOG.users ? SMALL_LOG : { ...SMALL_LOG, name: `log${users}u`, users };
const week = seededMondays(shape, new Date()).at(-1);
const hash = seedHash(`${JSON.stringify(shape)}|week ${week}|${productEnv.AUTH_ENCRYPTION_KEY}`);
const { name } = await ensureTemplate(options.serverUrl, `ss_bench_${shape.name}`, hash, {
  reseed: options.reseed,
  build: async (url) => {
    await seedHistory(inProcessConfig, url, shape, say);
  },
});
say(name);
process.exit(0);
