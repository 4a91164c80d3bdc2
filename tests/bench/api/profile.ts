import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { options, say } from './lib/bench-options.ts';
import { measureRequests } from './lib/load.ts';
import { inProcessConfig, startProduct } from './lib/product.ts';
import { readerIds, readWorkloads } from './lib/read-rows.ts';
import { mintAccessTokens } from './lib/sessions.ts';
import { cloneTemplate } from './lib/template-cache.ts';
import { measureWriteThenVisible, prepareRuns, writersFor } from './lib/write-then-visible.ts';
import { readFixtureAt } from './seed/fixture.ts';

/*
 * Profile before optimising (issue 14): `node tests/bench/api/profile.ts <template> [workload…]` clones a seeded
 * template (`psql -l | grep ss_bench_`), starts the product under --cpu-prof, drives one workload at a time (a read
 * row's name, or `POST /runs`) for BENCH_SECONDS, and prints where the server's CPU went: the functions with the most
 * self time, and per file. The load generator runs in this process, never in the server's.
 */

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
}

/** The top entries by self samples: functions, then files (node_modules grouped by package). */
function summarise(profile: CpuProfile, top = 25): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfCount = new Map<number, number>();
  for (const id of profile.samples) selfCount.set(id, (selfCount.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, count] of selfCount) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url.replace(/^file:\/\/.*?\/main\//, '');
    const file = where.includes('node_modules/')
      ? `npm:${where
          .split('node_modules/')
          .at(-1)!
          .split('/')
          .slice(0, where.includes('/@') ? 2 : 1)
          .join('/')}`
      : where || `(${functionName || 'native'})`;
    const fn = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + count);
    files.set(file, (files.get(file) ?? 0) + count);
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
  say(`  ${total} samples`);
  say('  top functions by self time:');
  for (const [fn, n] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) say(`   ${pct(n)}  ${fn}`);
  say('  by file or package:');
  for (const [file, n] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) say(`   ${pct(n)}  ${file}`);
}

const [template, ...wanted] = process.argv.slice(2);
if (!template) {
  say('usage: node tests/bench/api/profile.ts <template database> [workload name…]');
  process.exit(2);
}
const clone = await cloneTemplate(options.serverUrl, template, 'profile');
try {
  const fixture = await readFixtureAt(clone.url);
  // The writers of the bench's POST /runs row: a thousandth of the users, spread over the log.
  const writerIds = fixture.users
    .filter((_, i) => i % Math.max(1, Math.floor(fixture.users.length / 1000)) === 0)
    .map((u) => u.id);
  const tokens = await mintAccessTokens({ ...inProcessConfig, DATABASE_URL: clone.url }, [
    ...new Set([...readerIds(fixture), ...writerIds]),
  ]);
  const reads = readWorkloads(fixture, tokens);
  const names = wanted.length > 0 ? wanted : [...reads.map((r) => r.name), 'POST /runs'];
  for (const name of names) {
    const dir = mkdtempSync(join(tmpdir(), 'ss-cpu-prof-'));
    const product = await startProduct(clone.url, dir);
    try {
      say(`\n${name} (${options.seconds} s)`);
      if (name === 'POST /runs') {
        const writers = await writersFor(product, fixture, new Map(writerIds.map((id) => [id, tokens.get(id)!])));
        prepareRuns(writers, options.seconds);
        const figures = await measureWriteThenVisible(product.url, writers, {
          connections: options.writeConnections,
          seconds: options.seconds,
          keys: options.writeKeys,
        });
        say(`  ${JSON.stringify(figures)}`);
      } else {
        const workload = reads.find((r) => r.name === name);
        if (!workload) throw new Error(`unknown workload "${name}"; known: ${reads.map((r) => r.name).join(', ')}`);
        const figures = await measureRequests(product.url, {
          connections: options.readConnections,
          seconds: options.seconds,
          next: workload.next,
        });
        say(`  ${Math.round(figures.perSecond)} req/s, p99 ${figures.p99Ms} ms, failures ${figures.failures}`);
      }
    } finally {
      await product.stop();
    }
    // One profile per process, named with its pid (CPU.<date>.<time>.<pid>.…): the API's first, then the worker's.
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    if (files.length === 0) say('  (no profile written)');
    for (const file of files.sort((a) => (a.includes(`.${product.pid}.`) ? -1 : 1))) {
      say(file.includes(`.${product.pid}.`) ? '  the API process:' : '  the worker process:');
      summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    }
  }
} finally {
  await clone.drop();
}
