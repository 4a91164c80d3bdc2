import type { BenchFixture } from '../seed/fixture.ts';
import { groupSize } from '../seed/seed-shape.ts';
import { options, say } from './bench-options.ts';
import { type LoadFigures, measureRequests, type NextRequest } from './load.ts';
import { rssOf, type ServerProcess } from './server-process.ts';
import { leastSquaresSlope } from './stats.ts';

/** The requests of the read rows, spread over the members of the 20-member groups (each with their own token). */
export function readWorkloads(fixture: BenchFixture, tokens: Map<string, string>) {
  const readers = fixture.groups
    .filter((g) => g.members.length === groupSize(0))
    .flatMap((g) =>
      g.members.filter((m) => tokens.has(m)).map((userId) => ({ userId, groupId: g.id, token: tokens.get(userId)! })),
    );
  const cycle = (path: (r: (typeof readers)[number]) => string): NextRequest => {
    let i = 0;
    return () => {
      const reader = readers[i++ % readers.length]!;
      return { path: path(reader), token: reader.token };
    };
  };
  return [
    { name: 'GET /goals/current', next: cycle(() => '/goals/current') },
    { name: 'GET /runs?limit=20', next: cycle(() => '/runs?limit=20') },
    { name: 'GET /feed?group_id (20 members)', next: cycle((r) => `/feed?group_id=${r.groupId}`) },
    { name: 'GET /groups/:id/challenges', next: cycle((r) => `/groups/${r.groupId}/challenges`) },
  ];
}

/** The members of the 20-member groups: the bench's readers. */
export function readerIds(fixture: BenchFixture): string[] {
  return [...new Set(fixture.groups.filter((g) => g.members.length === groupSize(0)).flatMap((g) => g.members))];
}

/** Read rows on one seeded log: returns the rows and the figures by workload name. */
export async function measureReads(
  product: ServerProcess,
  fixture: BenchFixture,
  tokens: Map<string, string>,
  label: string,
) {
  const rows: { name: string; figures: LoadFigures }[] = [];
  for (const workload of readWorkloads(fixture, tokens)) {
    say(`  … ${workload.name} ${label}`);
    // One request first, so a row that would measure refusals says why.
    const probe = workload.next();
    const answer = await fetch(`${product.url}${probe.path}`, { headers: { authorization: `Bearer ${probe.token}` } });
    if (answer.status !== 200)
      say(`    ${probe.path} answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
    const figures = await measureRequests(product.url, {
      connections: options.readConnections,
      seconds: options.seconds,
      next: workload.next,
    });
    rows.push({ name: `${workload.name} ${label}`, figures });
  }
  return rows;
}

/**
 * RSS of each of the product's processes (the API's, then the worker's when it runs apart) sampled each second while
 * the read mix runs at 100 connections. Each is judged apart: summed, the worker (idle under reads) shrinking its heap
 * after the write row hid the API's own figure.
 */
export async function measureMemory(product: ServerProcess, fixture: BenchFixture, tokens: Map<string, string>) {
  const workloads = readWorkloads(fixture, tokens);
  let k = 0;
  const mixed: NextRequest = () => workloads[k++ % workloads.length]!.next();
  const samples = product.pids.map(() => [] as { x: number; y: number }[]);
  const started = performance.now();
  const timer = setInterval(() => {
    const x = (performance.now() - started) / 60_000;
    for (const [i, pid] of product.pids.entries()) samples[i]!.push({ x, y: rssOf(pid) / 2 ** 20 });
  }, 1000);
  const figures = await measureRequests(product.url, {
    connections: options.readConnections,
    seconds: options.memorySeconds,
    next: mixed,
  });
  clearInterval(timer);
  const processes = samples.map((series, i) => {
    // The first tenth is warm-up (JIT, pools, caches filling): the slope is read over the rest.
    const steady = series.slice(Math.floor(series.length / 10));
    return {
      name: i === 0 ? 'API' : 'worker',
      startMb: steady[0]?.y ?? Number.NaN,
      endMb: steady.at(-1)?.y ?? Number.NaN,
      maxMb: Math.max(...series.map((s) => s.y)),
      slopeMbPerMin: leastSquaresSlope(steady),
    };
  });
  return { figures, processes };
}
