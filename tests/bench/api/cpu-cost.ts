import pg from 'pg';
import { options, say } from './lib/bench-options.ts';
import { type LoadFigures, measureRequests, type NextRequest } from './lib/load.ts';
import { cpuTicksOf, postgresTicks, syscallsOf, TICK_MS } from './lib/process-cpu.ts';
import { inProcessConfig, startProduct } from './lib/product.ts';
import { readerIds, readWorkloads } from './lib/read-rows.ts';
import { freePort, type ServerProcess, startServer } from './lib/server-process.ts';
import { mintAccessTokens } from './lib/sessions.ts';
import { cloneTemplate } from './lib/template-cache.ts';
import { measureWriteThenVisible, prepareRuns, writersFor } from './lib/write-then-visible.ts';
import { readFixtureAt } from './seed/fixture.ts';

/*
 * `node tests/bench/api/cpu-cost.ts <template> [workload…]`: CPU time per request, in the product's processes (API and worker) and in
 * PostgreSQL, and transactions per request, for the baselines (`baseline`), the read rows and `POST /runs` (per run
 * made visible, its reads of GET /goals/current included). Throughput on a shared 2-core machine moves with whatever else
 * runs; CPU per request moves much less, so it tells whether a change made a request cheaper even when the machine
 * is busy. Reads /proc: the API's and the worker's utime+stime, and the sum over every `postgres` process.
 */

/** Transactions committed in the database so far (every statement outside a transaction is one). */
async function commits(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** utime and stime of the product's processes (the API's and the worker's), summed, in clock ticks. */
function productTicks(server: ServerProcess): { user: number; system: number } {
  const each = server.pids.map(cpuTicksOf);
  return { user: each.reduce((n, t) => n + t.user, 0), system: each.reduce((n, t) => n + t.system, 0) };
}

async function measure(
  server: ServerProcess,
  databaseUrl: string,
  name: string,
  load: { reads: NextRequest } | { writes: () => Promise<LoadFigures> },
): Promise<void> {
  const commitsBefore = await commits(databaseUrl);
  const serverBefore = productTicks(server);
  const eachBefore = server.pids.map(cpuTicksOf);
  const callsBefore = server.pids.map(syscallsOf);
  const loadBefore = process.cpuUsage();
  const pgBefore = postgresTicks();
  const figures =
    'writes' in load
      ? await load.writes()
      : await measureRequests(server.url, {
          connections: options.readConnections,
          seconds: options.seconds,
          next: load.reads,
        });
  // The warm-up second is not counted in `completed` but used CPU too.
  const requests = figures.completed * ((options.seconds + 1) / options.seconds);
  const serverAfter = productTicks(server);
  const eachUs = server.pids.map((pid, i) => {
    const after = cpuTicksOf(pid);
    const before = eachBefore[i]!;
    return Math.round(((after.user + after.system - before.user - before.system) * TICK_MS * 1000) / requests);
  });
  // System calls per request in each process (the API, then the worker; a baseline is one server): writes are mostly
  // statements and answers.
  const calls = server.pids
    .map((pid, i) => {
      const after = syscallsOf(pid);
      const before = callsBefore[i]!;
      const per = (n: number) => (n / requests).toFixed(1);
      const label = server.pids.length === 1 ? 'server' : i === 0 ? 'API' : 'worker';
      return `${label} ${per(after.reads - before.reads)}/${per(after.writes - before.writes)}`;
    })
    .join(', ');
  const perRequestUs = (ticks: number) => Math.round((ticks * TICK_MS * 1000) / requests);
  const userUs = perRequestUs(serverAfter.user - serverBefore.user);
  const systemUs = perRequestUs(serverAfter.system - serverBefore.system);
  const pgUs = ((postgresTicks() - pgBefore) * TICK_MS * 1000) / requests;
  const generator = process.cpuUsage(loadBefore);
  const loadUs = (generator.user + generator.system) / requests;
  // pg_stat_database lags by up to its flush interval: a moment for the counters to arrive.
  await new Promise((r) => setTimeout(r, 1_500));
  const statements = ((await commits(databaseUrl)) - commitsBefore) / requests;
  // The write row's shape: where its time goes (the POST, or reads of the goal until the run shows).
  const write = figures as Partial<Record<'postP50Ms' | 'postP99Ms' | 'readsPerRun', number>>;
  const shape =
    write.postP99Ms !== undefined
      ? `  p50 ${Math.round(figures.p50Ms)} ms; POST p50 ${Math.round(write.postP50Ms!)}, p99 ${Math.round(write.postP99Ms)} ms; ${write.readsPerRun!.toFixed(2)} reads/run`
      : '';
  say(
    `${name.padEnd(40)} ${String(Math.round(figures.perSecond)).padStart(6)} req/s  p99 ${String(Math.round(figures.p99Ms)).padStart(5)} ms  server ${String(userUs + systemUs).padStart(5)} µs/req (user ${userUs}, kernel ${systemUs}${eachUs.length > 1 ? `; API ${eachUs[0]}, worker ${eachUs.slice(1).join(' + ')}` : ''})  postgres ${String(Math.round(pgUs)).padStart(5)} µs/req  load generator ${Math.round(loadUs)} µs/req  ${statements.toFixed(2)} transactions/req  syscalls/req read/write: ${calls}  failures ${figures.failures}${shape}`,
  );
}

const [template, ...wanted] = process.argv.slice(2);
if (!template) {
  say('usage: node tests/bench/api/cpu-cost.ts <template database> [workload name…]');
  process.exit(2);
}
const clone = await cloneTemplate(options.serverUrl, template, 'cpucost');
try {
  const fixture = await readFixtureAt(clone.url);
  // The writers of the bench's POST /runs row: a thousandth of the users, spread over the log.
  const writerIds = fixture.users
    .filter((_, i) => i % Math.max(1, Math.floor(fixture.users.length / 1000)) === 0)
    .map((u) => u.id);
  const tokens = await mintAccessTokens({ ...inProcessConfig, DATABASE_URL: clone.url }, [
    ...new Set([...readerIds(fixture), ...writerIds]),
  ]);
  if (wanted.length === 0 || wanted.includes('baseline')) {
    const baseline = await startServer(
      'tests/bench/api/baseline-server.ts',
      { DATABASE_URL: clone.url },
      { port: await freePort(), healthPath: '/' },
    );
    try {
      await measure(baseline, clone.url, 'bare Hono GET /', { reads: () => ({ path: '/' }) });
      await measure(baseline, clone.url, 'bare Hono + pg PK read', { reads: () => ({ path: '/pk' }) });
    } finally {
      await baseline.stop();
    }
  }
  const product = await startProduct(clone.url);
  try {
    for (const workload of readWorkloads(fixture, tokens)) {
      if (wanted.length > 0 && !wanted.includes(workload.name)) continue;
      await measure(product, clone.url, workload.name, { reads: workload.next });
    }
    if (wanted.length === 0 || wanted.includes('POST /runs')) {
      const writers = await writersFor(product, fixture, new Map(writerIds.map((id) => [id, tokens.get(id)!])));
      prepareRuns(writers, options.seconds);
      await measure(product, clone.url, 'POST /runs → visible (per run)', {
        writes: () =>
          measureWriteThenVisible(product.url, writers, {
            connections: options.writeConnections,
            seconds: options.seconds,
            keys: options.writeKeys,
          }),
      });
    }
  } finally {
    await product.stop();
  }
} finally {
  await clone.drop();
}
process.exit(0);
