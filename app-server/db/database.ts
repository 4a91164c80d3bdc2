import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';

/**
 * The one database handle the server shares: kysely over PostgreSQL (`pg`) or embedded PGlite, plus
 * LISTEN/NOTIFY, which kysely does not cover. Modules narrow the table types with `db.withTables<T>()`.
 */
export type Db = Kysely<object>;

export interface Database {
  readonly db: Db;
  readonly kind: 'postgres' | 'pglite';
  /** Calls `onNotify` for each NOTIFY on `channel`; returns a function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent an embedded PGlite database is opened. */
  databaseUrl?: string | undefined;
  /** PGlite data directory, or 'memory' for a throw-away database (tests). */
  dataDir?: string | undefined;
  /** Size of the pg pool (PostgreSQL only). */
  poolSize?: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Counts, cents and log positions fit in a double by a wide margin; numbers are easier to use and to serialise to
// JSON than bigint. NUMERIC holds distances with 2 decimals.
const parsers = { [INT8_OID]: (value: string) => Number(value), [NUMERIC_OID]: (value: string) => Number(value) };

/** Opens PostgreSQL when a URL is given, else PGlite (on disk under dataDir, or in memory). */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir ?? 'memory');
}

async function openPostgres(connectionString: string, poolSize: number): Promise<Database> {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid in parsers ? parsers[oid as keyof typeof parsers] : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({ connectionString, max: poolSize, types });
  // An idle client that loses its connection emits 'error'; without a listener Node would crash the process.
  pool.on('error', () => {});
  const db = new Kysely<object>({ dialect: new PostgresDialect({ pool }) });
  const listeners = new Set<pg.Client>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, onNotify) {
      const client = new pg.Client({ connectionString, types });
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      listeners.add(client);
      return async () => {
        listeners.delete(client);
        await client.end().catch(() => {});
      };
    },
    async close() {
      await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
      await db.destroy();
    },
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  const releaseLock = dataDir === 'memory' ? () => {} : lockDataDir(dataDir);
  const pglite = new PGlite(dataDir === 'memory' ? undefined : dataDir, { parsers });
  await pglite.waitReady;
  const db = new Kysely<object>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    async listen(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify);
      return async () => unsubscribe();
    },
    async close() {
      await db.destroy();
      releaseLock();
    },
  };
}

/**
 * PGlite is an in-process database: two processes opening the same directory would corrupt it. A pid file makes
 * the second one stop with a clear message instead.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'stridestake.pid');
  const holder = readPid(lockFile);
  if (holder !== null && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder}. Stop it first, or set DATABASE_URL to share a PostgreSQL server.`,
    );
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
