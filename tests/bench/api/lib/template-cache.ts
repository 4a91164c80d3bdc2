import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import pg from 'pg';

const ROOT = resolve(import.meta.dirname, '../../../..');

/**
 * Seeded databases are cached on the PostgreSQL server as template databases named `ss_bench_<shape>_<hash>`, where
 * the hash covers everything that decides what a seed contains: the seed's own files, the GPS track generator,
 * every migration, the projections (their tables and what they write), the domain (its deciders write the events), `extra` (the shape, and for the logs the week the
 * history ends in: a seed's "current week" goes stale on Monday) and `extraFiles` (another seed's code). A later
 * bench run clones the template (CREATE DATABASE … TEMPLATE … STRATEGY FILE_COPY, a file copy) in seconds. Reset:
 * `BENCH_RESEED=1 npm run bench`, or drop the databases listed by `psql -l | grep ss_bench_`.
 */
export function seedHash(extra: string, extraFiles: readonly string[] = []): string {
  const files = [
    ...extraFiles,
    ...filesUnder('tests/bench/api/seed'),
    'tests/bench/api/lib/gps-track.ts',
    ...filesUnder('domain').filter((f) => !f.endsWith('.test.ts')),
    ...filesUnder('app-server').filter((f) => /migrations/.test(f)),
    // Projectors create their tables and indexes themselves, and the seed's read models are theirs.
    ...filesUnder('projections').filter((f) => !f.endsWith('.test.ts')),
  ].sort();
  const hash = createHash('sha256').update(extra);
  for (const file of files) hash.update(file).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 12);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir))) {
    const path = join(ROOT, dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(relative(ROOT, path)));
    else if (entry.endsWith('.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

/** A database URL on the same server with another database name. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Returns the template `<prefix>_<hash>`, building it with `build(url)` when it is missing (or when `reseed`):
 * into `<name>_wip` first, vacuumed and analyzed, renamed only once complete, so an interrupted seed never passes for a finished one.
 * Older templates of the same prefix (other hashes) are dropped: one cached copy per shape.
 */
export async function ensureTemplate(
  serverUrl: string,
  prefix: string,
  hash: string,
  options: { reseed: boolean; build: (url: string) => Promise<void> },
): Promise<{ name: string; built: boolean }> {
  const name = `${prefix}_${hash}`;
  const existing = await admin(serverUrl, async (c) =>
    (
      await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}\\_%`])
    ).rows.map((r) => r.datname),
  );
  if (existing.includes(name) && !options.reseed) return { name, built: false };
  for (const stale of existing) {
    await admin(serverUrl, async (c) => {
      // PostgreSQL refuses to drop a template database until it is unmarked.
      await c.query(`ALTER DATABASE ${stale} WITH IS_TEMPLATE false`);
      await c.query(`DROP DATABASE IF EXISTS ${stale} WITH (FORCE)`);
    });
  }
  const wip = `${name}_wip`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${wip}`));
  await options.build(databaseUrl(serverUrl, wip));
  // What autovacuum would have done to a production database by now: planner statistics and no dead rows from the
  // seed's updates. The clones copy both. (The CI server this bench often runs on has autovacuum off.)
  await admin(databaseUrl(serverUrl, wip), (c) => c.query('VACUUM ANALYZE'));
  await admin(serverUrl, async (c) => {
    await c.query(`ALTER DATABASE ${wip} RENAME TO ${name}`);
    await c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
  });
  return { name, built: true };
}

/** A fresh copy of a template for one bench run; drop() removes it. */
export async function cloneTemplate(serverUrl: string, template: string, label: string) {
  const name = `ss_bench_run_${label}_${process.pid}`;
  await admin(serverUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    // A file copy. Since PostgreSQL 15 the default (WAL_LOG) writes the whole copy to the WAL: 2.6 GB for the 1M log,
    // whose checkpoints ("occurring too frequently") then ran through the rows measured after the clone, a full page
    // write for every page a run touched first. FILE_COPY checkpoints before and after the copy and logs no data.
    const { rows } = await c.query<{ v: number }>(`SELECT current_setting('server_version_num')::int AS v`);
    await c.query(`CREATE DATABASE ${name} TEMPLATE ${template}${rows[0]!.v >= 150000 ? ' STRATEGY FILE_COPY' : ''}`);
  });
  return {
    name,
    url: databaseUrl(serverUrl, name),
    drop: () => admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
