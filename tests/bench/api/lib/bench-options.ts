import { LARGE_LOG } from '../seed/seed-shape.ts';

const env = process.env;
const number = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);

/** What `npm run bench:api` reads from the environment (docs/PERFORMANCE.md, "How to measure"). */
export const options = {
  /** Any database on the PostgreSQL server to use; templates and clones are created beside it. */
  serverUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  seconds: number('BENCH_SECONDS', 5),
  readConnections: number('BENCH_READ_CONNECTIONS', 100),
  writeConnections: number('BENCH_WRITE_CONNECTIONS', 20),
  /** `1`: every POST /runs of the write row carries an Idempotency-Key, as the web app's always do. */
  writeKeys: env.BENCH_WRITE_KEYS === '1',
  memorySeconds: number('BENCH_MEMORY_SECONDS', 60),
  settleGoals: number('BENCH_SETTLE_GOALS', 2_000),
  /** A file to write a CPU profile of the settlement's window to (the bench process runs the workers). */
  settleCpuProfile: env.BENCH_SETTLE_CPU_PROFILE || undefined,
  logUsers: number('BENCH_LOG_USERS', LARGE_LOG.users),
  rebuild: env.BENCH_REBUILD !== '0',
  reseed: env.BENCH_RESEED === '1',
  logLevel: env.BENCH_LOG_LEVEL ?? 'info',
  /**
   * `separate` (default): the API with RUN_WORKERS=false and one worker process (app-server/worker.ts), as
   * docker-compose.yml deploys them; `inprocess`: one process running both, as `npm start` does.
   */
  workers: env.BENCH_WORKERS === 'inprocess' ? ('inprocess' as const) : ('separate' as const),
};

/** Prints one line of the bench's progress or results. */
export const say = (line: string) => process.stdout.write(`${line}\n`);

/** 10,934 → "11k", 1,012,345 → "1.01M". */
export const eventsLabel = (n: number) => (n < 1e6 ? `${Math.round(n / 1000)}k` : `${(n / 1e6).toFixed(2)}M`);
