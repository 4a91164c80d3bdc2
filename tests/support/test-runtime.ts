import pg from 'pg';
import pino from 'pino';
import type { PaymentGateway } from '../../app-server/adapters/payments/payment-gateway.ts';
import type { PushSender } from '../../app-server/adapters/push/push-sender.ts';
import { ManualClock } from '../../app-server/clock.ts';
import { type Config, loadConfig } from '../../app-server/config.ts';
import { openDatabase } from '../../app-server/db/database.ts';
import { createRuntime, type Runtime } from '../../app-server/runtime.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { emptyClusterImage } from './pglite-image.ts';

export type DatabaseTarget = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set (CI sets it), so API tests run on both engines. */
export function databaseTargets(): DatabaseTarget[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestRuntime extends Runtime {
  readonly clock: ManualClock;
  /** Answers an HTTP request through the real app (no socket). */
  request(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  readonly body: any;
  readonly text: string;
}

/**
 * Starts the whole server (migrations, event store, projections) on a fresh database of the given engine, with a
 * manual clock. Projections run live, as in production. Share one per test file: PGlite takes seconds to start.
 */
export async function startTestRuntime(
  target: DatabaseTarget,
  options: {
    now?: string;
    config?: Partial<Config>;
    workers?: boolean;
    push?: PushSender;
    /** A payment gateway instead of the configured one (a Stripe adapter pointed at a stand-in server). */
    payments?: PaymentGateway | null;
    /** A PGlite folder instead of memory, so a CLI can open the same database once the runtime is closed. */
    dataDir?: string;
    /**
     * PostgreSQL only: a streaming replica of DATABASE_URL's server (`postgres://…:5433`, READ_REPLICA_URL in CI); the
     * runtime reads there (READ_DATABASE_URL) from the scratch database's copy.
     */
    readReplica?: string;
  } = {},
): Promise<TestRuntime> {
  const scratch = target === 'postgres' ? await createScratchDatabase(process.env.DATABASE_URL!) : null;
  const config = {
    // Request limits scaled far up: tests send hundreds of requests from one user and one address ('unknown'). The
    // limit tests (rate-limits.test.ts) pass RATE_LIMIT_MULTIPLIER: 1.
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_MULTIPLIER: '1000' }),
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...options.config,
  };
  const readDatabaseUrl =
    scratch && options.readReplica ? await replicaCopy(scratch.url, options.readReplica) : undefined;
  const database = await openDatabase({
    databaseUrl: scratch?.url,
    readDatabaseUrl,
    dataDir: options.dataDir ?? 'memory',
    pgliteImage: options.dataDir ? undefined : emptyClusterImage(),
    poolSize: 5,
  });
  const clock = new ManualClock(options.now ?? '2026-11-18T12:00:00Z');
  const runtime = await createRuntime(config, {
    clock,
    database,
    logger: pino({ level: 'silent' }),
    ...(options.push ? { push: options.push } : {}),
    ...(options.payments !== undefined ? { payments: options.payments } : {}),
  });
  if (options.workers ?? true) await runtime.startWorkers();
  return {
    ...runtime,
    clock,
    async request(method, path, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      if (requestOptions.token) headers.authorization = `Bearer ${requestOptions.token}`;
      let body: string | undefined;
      if (requestOptions.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body);
      }
      const response = await runtime.app.request(path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async close() {
      await runtime.close();
      await database.close();
      await scratch?.drop();
    },
  };
}

/** The replica's URL of the primary database at `primaryUrl`, once the replica has replayed its creation. */
async function replicaCopy(primaryUrl: string, replicaServer: string): Promise<string> {
  const url = new URL(primaryUrl);
  const server = new URL(replicaServer);
  url.host = server.host;
  url.username = server.username;
  url.password = server.password;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await client.end();
      return url.toString();
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
