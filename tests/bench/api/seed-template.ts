import { say, options } from './lib/bench-options.ts';
import { inProcessConfig, productEnv } from './lib/product.ts';
import { ensureTemplate, seedHash } from './lib/template-cache.ts';
import { seedHistory } from './seed/seed-history.ts';
import { SMALL_LOG, seededMondays } from './seed/seed-shape.ts';

/*
 * `node tests/bench/api/seed-template.ts [users]` builds (or finds) a seeded template of the small log's shape with
 * `users` users (default 100, the bench's own ≈10k-event log, seeded in about 15 s) and prints its name, for
 * `node tests/bench/api/profile.ts <template> "POST /runs"` without running the whole bench first.
 */
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
