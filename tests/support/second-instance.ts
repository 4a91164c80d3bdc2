import pino from 'pino';
import { openDatabase } from '../../app-server/db/database.ts';
import { createRuntime } from '../../app-server/runtime.ts';
import type { TestResponse, TestRuntime } from './test-runtime.ts';

/**
 * A second API instance on the database of `first` (PostgreSQL only), as behind a load balancer: its own pool, its own
 * LISTEN connections, its own caches, the same clock; no workers (the first runs them). Close it before the first.
 */
export async function startSecondInstance(first: TestRuntime) {
  const url = first.config.DATABASE_URL;
  if (!url) throw new Error('A second instance needs PostgreSQL (the first runtime has no DATABASE_URL)');
  const database = await openDatabase({ databaseUrl: url, poolSize: 5 });
  const runtime = await createRuntime(first.config, {
    clock: first.clock,
    database,
    logger: pino({ level: 'silent' }),
  });
  return {
    runtime,
    async request(
      method: string,
      path: string,
      options: { body?: unknown; token?: string } = {},
    ): Promise<TestResponse> {
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const init = { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) };
      const response = await runtime.app.request(path, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
    },
    async close() {
      await runtime.close();
      await database.close();
    },
  };
}
