import { type ApiRow, printApiTable } from './lib/api-table.ts';
import { eventsLabel, options, say } from './lib/bench-options.ts';
import { type LoadFigures, measureRequests } from './lib/load.ts';
import { inProcessConfig, productEnv, startProduct, timeRebuild } from './lib/product.ts';
import { measureMemory, measureReads, readerIds } from './lib/read-rows.ts';
import { freePort, startServer } from './lib/server-process.ts';
import { mintAccessTokens } from './lib/sessions.ts';
import { printTargets } from './lib/targets.ts';
import { cloneTemplate, ensureTemplate, seedHash } from './lib/template-cache.ts';
import { measureWriteThenVisible, prepareRuns, sampleRunBodies, writersFor } from './lib/write-then-visible.ts';
import { readFixtureAt } from './seed/fixture.ts';
import { seedHistory } from './seed/seed-history.ts';
import { LARGE_LOG, type SeedShape, SMALL_LOG, seededMondays } from './seed/seed-shape.ts';
import { seedSettlementFixture } from './settlement.ts';
import { measureSettlement, type SettlementFigures } from './settlement-measure.ts';

const seconds = (since: number) => Math.round((performance.now() - since) / 1000);

/** A seeded template for `shape`, built if missing. */
export async function template(shape: SeedShape): Promise<string> {
  const week = seededMondays(shape, new Date()).at(-1);
  const hash = seedHash(`${JSON.stringify(shape)}|week ${week}|${productEnv.AUTH_ENCRYPTION_KEY}`);
  const started = performance.now();
  const { name, built } = await ensureTemplate(options.serverUrl, `ss_bench_${shape.name}`, hash, {
    reseed: options.reseed,
    build: async (url) => {
      say(
        `seeding ${shape.name} (${shape.users.toLocaleString('en-US')} users, ${shape.groups} groups, ${shape.weeks} weeks) into ${url}`,
      );
      await seedHistory(inProcessConfig, url, shape, say);
    },
  });
  say(built ? `seeded template ${name} in ${seconds(started)} s` : `using cached template ${name}`);
  return name;
}

/** The large log's shape: BENCH_LOG_USERS users (10,000: the 1M events), 50 groups per 10,000 users. */
export function largeShape(): SeedShape {
  return {
    ...LARGE_LOG,
    users: options.logUsers,
    groups: Math.max(5, Math.round((options.logUsers / 10_000) * LARGE_LOG.groups)),
  };
}

/** Runs the whole API bench and prints the table and the targets. */
export async function runApiBench(): Promise<void> {
  const benchStarted = performance.now();
  const large = largeShape();
  const smallTemplate = await template(SMALL_LOG);
  const largeTemplate = await template(large);

  // ~10k events: the read rows only.
  const small = await cloneTemplate(options.serverUrl, smallTemplate, 'small');
  let smallReads: { name: string; figures: LoadFigures }[] = [];
  let smallEvents = 0;
  try {
    const fixture = await readFixtureAt(small.url);
    smallEvents = fixture.events;
    const tokens = await mintAccessTokens({ ...inProcessConfig, DATABASE_URL: small.url }, readerIds(fixture));
    const product = await startProduct(small.url);
    try {
      smallReads = await measureReads(product, fixture, tokens, `@${eventsLabel(fixture.events)} events`);
    } finally {
      await product.stop();
    }
  } finally {
    await small.drop();
  }

  // ~1M events: baselines, read rows, the write row, memory, then the rebuild.
  const big = await cloneTemplate(options.serverUrl, largeTemplate, 'large');
  const rows: ApiRow[] = [];
  let largeReads: { name: string; figures: LoadFigures }[] = [];
  let write: Awaited<ReturnType<typeof measureWriteThenVisible>> | null = null;
  let memory: Awaited<ReturnType<typeof measureMemory>> | null = null;
  let rebuild: { seconds: number; output: string } | null = null;
  let largeEvents = 0;
  try {
    const fixture = await readFixtureAt(big.url);
    largeEvents = fixture.events;
    const writerIds = fixture.users
      .filter((_, i) => i % Math.max(1, Math.floor(fixture.users.length / 1000)) === 0)
      .map((u) => u.id);
    const tokens = await mintAccessTokens({ ...inProcessConfig, DATABASE_URL: big.url }, [
      ...new Set([...readerIds(fixture), ...writerIds]),
    ]);
    const baseline = await startServer(
      'tests/bench/api/baseline-server.ts',
      { DATABASE_URL: big.url },
      { port: await freePort(), healthPath: '/' },
    );
    let bare: LoadFigures;
    let withPg: LoadFigures;
    let withInsert: LoadFigures;
    try {
      say('  … bare Hono GET /');
      bare = await measureRequests(baseline.url, {
        connections: options.readConnections,
        seconds: options.seconds,
        next: () => ({ path: '/' }),
      });
      say('  … bare Hono + pg primary-key read');
      withPg = await measureRequests(baseline.url, {
        connections: options.readConnections,
        seconds: options.seconds,
        next: () => ({ path: '/pk' }),
      });
      say('  … bare Hono + one pg insert of a POST /runs body');
      const bodies = sampleRunBodies(50);
      let nextBody = 0;
      withInsert = await measureRequests(baseline.url, {
        connections: options.writeConnections,
        seconds: options.seconds,
        method: 'POST',
        next: () => ({ path: '/runs', body: bodies[nextBody++ % bodies.length]! }),
      });
    } finally {
      await baseline.stop();
    }
    rows.push({
      name: 'bare Hono GET / (small JSON)',
      connections: options.readConnections,
      figures: bare,
      baseline: null,
    });
    rows.push({
      name: 'bare Hono + one pg primary-key read',
      connections: options.readConnections,
      figures: withPg,
      baseline: bare,
    });
    rows.push({
      name: 'bare Hono + one pg insert of a run body',
      connections: options.writeConnections,
      figures: withInsert,
      baseline: bare,
      unit: 'runs/s',
    });
    const product = await startProduct(big.url);
    try {
      largeReads = await measureReads(product, fixture, tokens, `@${eventsLabel(fixture.events)} events`);
      say('  … POST /runs until visible in GET /goals/current');
      const runners = await writersFor(product, fixture, new Map(writerIds.map((id) => [id, tokens.get(id)!])));
      prepareRuns(runners, options.seconds);
      write = await measureWriteThenVisible(product.url, runners, {
        connections: options.writeConnections,
        seconds: options.seconds,
        keys: options.writeKeys,
      });
      say(`  … memory over ${options.memorySeconds} s at ${options.readConnections} connections`);
      memory = await measureMemory(product, fixture, tokens);
    } finally {
      await product.stop();
    }
    if (options.rebuild) {
      say('  … full rebuild of every read model (npm run projections:rebuild -- --all)');
      rebuild = await timeRebuild(big.url);
    }
    for (const r of [...smallReads, ...largeReads])
      rows.push({ ...r, connections: options.readConnections, baseline: withPg });
    if (write) {
      rows.push({
        name: 'POST /runs → visible in GET /goals/current',
        connections: options.writeConnections,
        figures: write,
        baseline: withInsert,
        unit: 'runs/s',
      });
    }
    if (memory)
      rows.push({
        name: `read mix for the memory sample (${options.memorySeconds} s)`,
        connections: options.readConnections,
        figures: memory.figures,
        baseline: withPg,
      });
  } finally {
    await big.drop();
  }

  let settlement: SettlementFigures | null = null;
  if (options.settleGoals > 0) settlement = await runSettlement(options.settleGoals);

  say(
    `\n## API (autocannon, PostgreSQL; the product in its own processes: ${options.workers === 'separate' ? 'the API with RUN_WORKERS=false and one worker' : 'one process with RUN_WORKERS=true'}; baselines on the same Node)`,
  );
  say(
    `logs: ${smallEvents.toLocaleString('en-US')} events (${SMALL_LOG.users} users) and ${largeEvents.toLocaleString('en-US')} events (${large.users.toLocaleString('en-US')} users, ${large.groups} groups); ${options.seconds} s per row after a 1 s warm-up`,
  );
  printApiTable(rows);
  printTargets({
    rows,
    smallReads,
    largeReads,
    withPg: rows[1]!.figures,
    withInsert: rows[2]!.figures,
    write,
    memory,
    rebuild,
    settlement,
    smallEvents,
    largeEvents,
  });
  say(`\nwhole API bench: ${seconds(benchStarted)} s`);
}

export async function runSettlement(goals: number): Promise<SettlementFigures> {
  const hash = seedHash(`settlement ${goals}|${productEnv.AUTH_ENCRYPTION_KEY}`, ['tests/bench/api/settlement.ts']);
  const started = performance.now();
  // One cached fixture per size (a 100,000-goal seed takes most of an hour: a 10,000-goal run must not replace it).
  const { name, built } = await ensureTemplate(options.serverUrl, `ss_bench_settle_${goals}g`, hash, {
    reseed: options.reseed,
    build: async (url) => {
      say(`seeding the settlement fixture (${goals.toLocaleString('en-US')} staked goals) into ${url}`);
      await seedSettlementFixture(inProcessConfig, url, goals, say);
    },
  });
  say(built ? `seeded template ${name} in ${seconds(started)} s` : `using cached template ${name}`);
  const clone = await cloneTemplate(options.serverUrl, name, 'settle');
  try {
    say(`  … settlement of ${goals.toLocaleString('en-US')} staked goals`);
    return await measureSettlement(inProcessConfig, clone.url, goals, options.settleCpuProfile);
  } finally {
    await clone.drop();
  }
}
