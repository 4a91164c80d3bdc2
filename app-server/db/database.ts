import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { prepareStatements } from './prepared-statements.ts';
import { type ReadReplica, replicaRouting } from './read-replica.ts';
import { type ListenStatus, ResilientListener } from './resilient-listener.ts';

/**
 * The one database handle the server shares: kysely over PostgreSQL (`pg`) or embedded PGlite, plus
 * LISTEN/NOTIFY, which kysely does not cover. Modules narrow the table types with `db.withTables<T>()`.
 */
export type Db = Kysely<object>;

export interface Database {
  /** The primary: every write, command, projection and check that must see the latest commit. */
  readonly db: Db;
  /**
   * The handle for the API's pure reads: the streaming replica inside a `readsOnReplica` scope when READ_DATABASE_URL
   * is set, the primary otherwise (read-replica.ts). The same as `db` without a replica.
   */
  readonly readDb: Db;
  /** The replica's positions, for read-your-writes routing; null without READ_DATABASE_URL. */
  readonly readReplica: ReadReplica | null;
  readonly kind: 'postgres' | 'pglite';
  /**
   * Calls `onNotify` for each NOTIFY on `channel`; returns a function that stops listening. On PostgreSQL the LISTEN
   * connection is re-established after a loss, and `onReconnect` is called then: notifications sent while it was
   * down are lost, so the caller catches up there.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    options?: { onReconnect?: () => void },
  ): Promise<() => Promise<void>>;
  /**
   * Like `listen`, and `barrier()` resolves once every notification committed before the call was handed to
   * `onNotify` (rejects while the connection is down). In-process on PGlite: a commit hands its notifications to the
   * listeners before its own promise resolves, so there is nothing to wait for.
   */
  follow(
    channel: string,
    onNotify: (payload: string) => void,
    options?: { onReconnect?: () => void },
  ): Promise<Following>;
  /** The LISTEN connections in use, for /health (PGlite's in-process notifications cannot be lost). */
  listenStatus(): ListenStatus[];
  close(): Promise<void>;
}

/** A LISTEN that can prove it has delivered everything committed so far (Database.follow). */
export interface Following {
  barrier(): Promise<void>;
  /** barrier(), answering `text` (a statement without parameters) from the same round trip. */
  barrierRead<Row>(text: string): Promise<Row[]>;
  stop(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent an embedded PGlite database is opened. */
  databaseUrl?: string | undefined;
  /** A streaming replica of `databaseUrl` for the API's pure reads (PostgreSQL only). */
  readDatabaseUrl?: string | undefined;
  /** PGlite data directory, or 'memory' for a throw-away database (tests). */
  dataDir?: string | undefined;
  /**
   * For 'memory' only: a PGlite dump (`dumpDataDir`) to start from instead of a new cluster. Creating a cluster runs
   * initdb inside the WebAssembly build, about 2 s; loading the dump of a fresh one takes about 0.5 s, so the tests,
   * which start a database per file and engine, share one (tests/support/pglite-image.ts).
   */
  pgliteImage?: Blob | undefined;
  /** Size of the pg pool (PostgreSQL only). */
  poolSize?: number;
  /** Told about every lost or failed connection (PostgreSQL only); they are survived, not thrown. */
  onConnectionError?: (error: unknown) => void;
  /** Prepare each statement text once per connection (PostgreSQL only; prepared-statements.ts). Default true. */
  preparedStatements?: boolean;
}

/** How this server's sessions are named in pg_stat_activity (operators find and terminate them by it). */
export const APPLICATION_NAME = 'stridestake';

/**
 * Session settings for every connection: no JIT compilation. PostgreSQL compiles a query whose *estimated* cost passes
 * jit_above_cost, and the estimate of a batched query over jsonb_to_recordset (guessed at 100 rows) passes it once
 * the tables are large: at 1M events the goal-progress query (0.1 ms to run) spent 256 ms compiling, on every call.
 * JIT pays off for long analytical queries, which this server does not run.
 */
export const SESSION_OPTIONS = '-c jit=off';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Counts, cents and log positions fit in a double by a wide margin; numbers are easier to use and to serialise to
// JSON than bigint. NUMERIC holds distances with 2 decimals.
const parsers = { [INT8_OID]: (value: string) => Number(value), [NUMERIC_OID]: (value: string) => Number(value) };

/** Opens PostgreSQL when a URL is given, else PGlite (on disk under dataDir, or in memory). */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      readUrl: options.readDatabaseUrl,
      poolSize: options.poolSize ?? 10,
      onConnectionError: options.onConnectionError ?? (() => {}),
      preparedStatements: options.preparedStatements ?? true,
    });
  }
  return openPglite(options.dataDir ?? 'memory', options.pgliteImage);
}

/**
 * node-postgres emits 'error' on the pool for an idle client that loses its connection, and on a checked-out client
 * (one in a transaction) too; an 'error' nobody listens to kills the process (57P01 when the server terminates the
 * session). Every client therefore gets a listener the moment the pool creates it: the query in flight still fails
 * (and the request answers 503, the projection retries), the pool drops the dead client, and the process lives on.
 */
async function openPostgres(
  connectionString: string,
  options: {
    readUrl?: string | undefined;
    poolSize: number;
    onConnectionError: (error: unknown) => void;
    preparedStatements: boolean;
  },
): Promise<Database> {
  const { poolSize, onConnectionError } = options;
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid in parsers ? parsers[oid as keyof typeof parsers] : pg.types.getTypeParser(oid, format),
  };
  const newPool = (url: string) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      types,
      application_name: APPLICATION_NAME,
      options: SESSION_OPTIONS,
      // A request should fail (503) rather than wait forever for a connection that does not come (a black-holed
      // network, a saturated pool); a stopped server refuses at once anyway.
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    pool.on('error', onConnectionError);
    pool.on('connect', (client) => {
      client.on('error', onConnectionError);
      if (options.preparedStatements) prepareStatements(client);
    });
    return pool;
  };
  const pool = newPool(connectionString);
  const replicaPool = options.readUrl ? newPool(options.readUrl) : null;
  const routing = replicaPool ? replicaRouting(pool, replicaPool) : null;
  const db = new Kysely<object>({ dialect: new PostgresDialect({ pool }) });
  const listeners = new Set<ResilientListener>();
  const follow: Database['follow'] = async (channel, onNotify, options = {}) => {
    const listener = new ResilientListener({
      channel,
      newClient: () =>
        new pg.Client({
          connectionString,
          types,
          application_name: `${APPLICATION_NAME}-listen`,
          options: SESSION_OPTIONS,
          keepAlive: true,
        }),
      onNotify,
      onError: onConnectionError,
      ...(options.onReconnect ? { onReconnect: options.onReconnect } : {}),
    });
    listeners.add(listener);
    await listener.start();
    return {
      barrier: () => listener.sync(),
      barrierRead: (text) => listener.syncRead(text),
      stop: async () => {
        listeners.delete(listener);
        await listener.stop();
      },
    };
  };
  return {
    db,
    readDb: routing?.readDb ?? db,
    readReplica: routing?.replica ?? null,
    kind: 'postgres',
    async listen(channel, onNotify, options = {}) {
      const following = await follow(channel, onNotify, options);
      return () => following.stop();
    },
    follow,
    listenStatus: () => [...listeners].map((listener) => listener.status),
    async close() {
      await Promise.all([...listeners].map((listener) => listener.stop()));
      listeners.clear();
      await routing?.replica.close();
      await db.destroy();
      await replicaPool?.end();
    },
  };
}

async function openPglite(dataDir: string, image: Blob | undefined): Promise<Database> {
  const inMemory = dataDir === 'memory';
  const releaseLock = inMemory ? () => {} : lockDataDir(dataDir);
  const pglite = inMemory
    ? new PGlite({ parsers, ...(image ? { loadDataDir: image } : {}) })
    : new PGlite(dataDir, { parsers });
  await pglite.waitReady;
  const db = new Kysely<object>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    readDb: db,
    readReplica: null,
    kind: 'pglite',
    async listen(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify);
      return async () => unsubscribe();
    },
    async follow(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify);
      return {
        barrier: async () => {},
        // One session: the statement runs in turn with everything else, and its notifications came before.
        barrierRead: async <Row>(text: string) => (await db.executeQuery<Row>(CompiledQuery.raw(text))).rows as Row[],
        stop: async () => unsubscribe(),
      };
    },
    listenStatus: () => [],
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
