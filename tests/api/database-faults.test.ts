import { Hono } from 'hono';
import { sql, type Transaction } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { authErrorHandler } from '../../app-server/auth/auth-error.ts';
import { loadConfig } from '../../app-server/config.ts';
import { APPLICATION_NAME, type Database, openDatabase } from '../../app-server/db/database.ts';
import type { AppEnv } from '../../app-server/http/app-env.ts';
import { SERVICE_UNAVAILABLE } from '../../app-server/db/unavailable.ts';
import { errorHandler } from '../../app-server/http/middleware/error-handler.ts';
import { readModelsAt } from '../../app-server/http/read-your-writes.ts';
import { recordingWrites } from '../../app-server/http/request-writes.ts';
import type { EventMetadata, EventStore } from '../../domain/shared/event-store.ts';
import { healthRoutes } from '../../app-server/http/routes/health.ts';
import { allProjectors } from '../../projections/registry.ts';
import { ProjectionRunner } from '../../projections/engine/projection-runner.ts';
import { changeTopics } from '../../projections/engine/projector.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { type ServerProcess, openEventStream, signUpOverHttp, startServerProcess } from '../support/server-process.ts';
import { runBody } from '../support/users.ts';

const logger = pino({ level: 'silent' });

/** Port 1 on this machine: nothing listens, so every connection is refused, the way a stopped server refuses it. */
const UNREACHABLE = 'postgres://postgres@127.0.0.1:1/stridestake';

describe('requests while the database is unreachable (a real refused connection)', () => {
  let database: Database;
  let projections: ProjectionRunner;

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: UNREACHABLE });
    projections = new ProjectionRunner({
      db: database.db,
      store: createPostgresEventStore(database),
      projectors: allProjectors,
    });
  });
  afterAll(() => database.close());

  const appWith = (route: (c: import('hono').Context<AppEnv>) => Promise<Response>) => {
    const app = new Hono<AppEnv>();
    app.onError(errorHandler({ logger }));
    app.post('/write', route);
    return app;
  };

  it('answers 503 with Retry-After and a JSON error, not 500', async () => {
    const app = appWith(async (c) => {
      await sql`SELECT 1`.execute(database.db);
      return c.json({ success: true });
    });
    const res = await app.request('/write', { method: 'POST' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toEqual({ error: SERVICE_UNAVAILABLE });
  });

  it('answers 503 in the auth API too, in its own error shape', async () => {
    const app = new Hono<AppEnv>();
    app.onError(authErrorHandler(logger));
    app.post('/token', async () => {
      await sql`SELECT 1`.execute(database.db);
      return new Response();
    });
    const res = await app.request('/token', { method: 'POST' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ code: 'unexpected_failure', msg: SERVICE_UNAVAILABLE });
  });

  it('answers a write that was saved with its success even when the database fails while it waits for read models', async () => {
    const position = { commit: 7, prepare: 7 };
    // A store whose append succeeds (the run is saved at `position`), recorded as the request's write.
    const saved = { appendToStream: async () => ({ nextExpectedRevision: 0, position, globalPosition: 7 }) };
    const app = appWith(async (c) => {
      const store = recordingWrites(c, saved as unknown as EventStore<Transaction<object>>);
      await store.appendToStream('run-1', [{ type: 'RunRecorded', data: {}, metadata: {} as EventMetadata }]);
      // Then the database went away while the route waited for the asynchronous read models a run reaches (the
      // inline ones, runs and goals, are never waited for).
      const wait = await readModelsAt(c, projections, position, { status: 201, data: { id: 'run-1' } });
      if (!wait.ready) return wait.answer;
      return c.json({ never: 'reached' });
    });
    const res = await app.request('/write', { method: 'POST' });
    expect(res.status).toBe(201);
    // A recorded run reaches one asynchronous read model, the feed (its card).
    expect(await res.json()).toEqual({ success: true, data: { id: 'run-1' }, catching_up: ['feed'] });
  });

  it('/health answers 503 naming the unreachable database', async () => {
    const app = healthRoutes({ database, projections, config: loadConfig({ NODE_ENV: 'test' }) });
    const res = await app.request('/health');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    const body = (await res.json()) as {
      status: string;
      problems: { component: string; reason: string; detail: string }[];
    };
    expect(body.status).toBe('unavailable');
    expect(body.problems).toEqual([
      { component: 'database', reason: 'unreachable', detail: expect.stringContaining('ECONNREFUSED') },
    ]);
  });
});

const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];

describe.each(postgres)('connections terminated by the PostgreSQL server (%s)', (baseUrl) => {
  let database: Database;
  let drop: () => Promise<void>;
  let name: string;
  const errors: unknown[] = [];

  beforeAll(async () => {
    const scratch = await createScratchDatabase(baseUrl, 'ss_faults');
    drop = scratch.drop;
    name = new URL(scratch.url).pathname.slice(1);
    database = await openDatabase({ databaseUrl: scratch.url, onConnectionError: (error) => errors.push(error) });
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  /** Ends the scratch database's sessions with this application name (and running `query`, if given), as an operator would. */
  const terminate = async (applicationName: string, query = '%'): Promise<number> => {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = $1 AND application_name = $2 AND query LIKE $3 AND pid <> pg_backend_pid()`,
        [name, applicationName, query],
      );
      return rows.length;
    } finally {
      await admin.end();
    }
  };

  it('re-establishes a terminated LISTEN, tells its owner to catch up, and hears notifications again', async () => {
    const heard: string[] = [];
    let reconnects = 0;
    const stop = await database.listen('faults_probe', (payload) => heard.push(payload), {
      onReconnect: () => reconnects++,
    });
    try {
      await sql`SELECT pg_notify('faults_probe', 'before')`.execute(database.db);
      await expect.poll(() => heard, { timeout: 3_000 }).toEqual(['before']);

      expect(await terminate(`${APPLICATION_NAME}-listen`)).toBe(1);
      await expect.poll(() => reconnects, { timeout: 5_000 }).toBe(1);
      expect(database.listenStatus()).toEqual([{ channel: 'faults_probe', connected: true, reconnects: 1 }]);
      expect(errors.some((e) => (e as { code?: string }).code === '57P01')).toBe(true);

      await sql`SELECT pg_notify('faults_probe', 'after')`.execute(database.db);
      await expect.poll(() => heard, { timeout: 3_000 }).toEqual(['before', 'after']);
    } finally {
      await stop();
    }
  });

  it('survives a pooled client terminated in the middle of a transaction: the query fails, the next one works', async () => {
    const inFlight = database.db.transaction().execute(async (tx) => {
      await sql`SELECT pg_sleep(10)`.execute(tx);
    });
    const failed = inFlight.then(
      () => null,
      (error: unknown) => error,
    );
    await expect
      .poll(async () => terminate(APPLICATION_NAME, '%pg_sleep%'), { timeout: 5_000, interval: 100 })
      .toBeGreaterThan(0);
    const error = (await failed) as { code?: string; message?: string } | null;
    expect(error).not.toBeNull();
    // The process is still here (an unhandled 'error' would have ended this test run), and the pool recovers.
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});

describe.each(postgres)('the server process while its database sessions are terminated (%s)', (baseUrl) => {
  let server: ServerProcess;
  let scratch: { url: string; drop(): Promise<void> };
  let name: string;
  let ipCounter = 0;
  const nextIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

  beforeAll(async () => {
    scratch = await createScratchDatabase(baseUrl, 'ss_chaos');
    name = new URL(scratch.url).pathname.slice(1);
    server = await startServerProcess({
      DATABASE_URL: scratch.url,
      NODE_ENV: 'development',
      AUTH_TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      // This test is about faults, not limits: its writers post as fast as the outages allow, beyond a runner's
      // request budget and group cap (rate-limits.test.ts holds those).
      RATE_LIMIT_MULTIPLIER: '1000',
      GROUPS_MAX_PER_USER: '10000',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
  });

  /** Terminates every session of the server's database (pool, LISTEN, advisory-lock, projection connections). */
  const terminateAll = async (): Promise<number> => {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      return rows.length;
    } finally {
      await admin.end();
    }
  };

  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, body: json, text };
  };

  const healthy = () =>
    expect.poll(async () => (await fetch(`${server.url}/health`)).status, { timeout: 30_000, interval: 250 }).toBe(200);

  it('keeps serving concurrent writes while all its sessions are terminated again and again: no 500, no acknowledged write lost', async () => {
    const users = await Promise.all(
      Array.from({ length: 5 }, (_, i) => signUpOverHttp(server.url, `chaos${i}`, nextIp())),
    );
    const statuses = new Map<number, number>();
    const acknowledged = { runs: users.map(() => [] as string[]), groups: users.map(() => [] as string[]) };
    const catchingUp = { count: 0 };
    let requests = 0;
    let chaosOver = false;
    const now = Date.now();

    const record = (status: number) => {
      requests++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    };
    const writer = async (u: number) => {
      const user = users[u]!;
      for (let k = 0; !chaosOver || k < 4; k++) {
        // A kilometre every quarter of an hour, walking back in time: plausible, never overlapping.
        const startedAt = new Date(now - (k + 1) * 15 * 60_000).toISOString();
        const run = await call(user.token, 'POST', '/runs', runBody(startedAt, 1));
        record(run.status);
        if (run.status === 201) acknowledged.runs[u]!.push(run.body.data.id);
        if (run.body?.catching_up) catchingUp.count++;
        const group = await call(user.token, 'POST', '/groups', { name: `Chaos ${u}-${k}` });
        record(group.status);
        if (group.status === 201) acknowledged.groups[u]!.push(group.body.data.id);
        if (group.body?.catching_up) catchingUp.count++;
      }
    };
    const chaos = async () => {
      let terminations = 0;
      const rounds = 5;
      for (let round = 0; round < rounds; round++) {
        await new Promise((r) => setTimeout(r, 1_000));
        // An outage of about 0.7 s: every session the server opens is terminated at once.
        const outageEnds = Date.now() + 700;
        while (Date.now() < outageEnds) {
          terminations += await terminateAll();
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      return { rounds, terminations };
    };

    const writers = users.map((_, u) => writer(u));
    const { rounds, terminations } = await chaos();
    chaosOver = true;
    await Promise.all(writers);

    const counts = {
      requests,
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      acknowledged_runs: acknowledged.runs.flat().length,
      acknowledged_groups: acknowledged.groups.flat().length,
      answered_catching_up: catchingUp.count,
      termination_rounds: rounds,
      sessions_terminated: terminations,
    };
    console.log(`chaos under load: ${JSON.stringify(counts)}`);

    expect(server.alive(), server.output()).toBe(true);
    expect(terminations).toBeGreaterThanOrEqual(rounds);
    // Every answer was a saved write (201) or "come back shortly" (503): never a 500, never anything else.
    expect([...statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(0);

    await healthy();
    // Every acknowledged write is in the log ...
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      const streams = [
        ...acknowledged.runs.flat().map((id) => `run-${id}`),
        ...acknowledged.groups.flat().map((id) => `group-${id}`),
      ];
      const { rows } = await admin.query('SELECT DISTINCT stream_id FROM es_events WHERE stream_id = ANY($1)', [
        streams,
      ]);
      expect(rows.map((r) => r.stream_id).sort()).toEqual([...streams].sort());
    } finally {
      await admin.end();
    }
    // ... and in its owner's read models. GET /groups and GET /runs answer in pages (a writer makes more than one page
    // of each), so every page is read.
    const allPages = async (token: string, path: '/groups?limit=50' | '/runs?limit=100', field: 'groups' | 'data') => {
      const items: { id: string }[] = [];
      let cursor: string | null = null;
      do {
        const page = await call(token, 'GET', `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        items.push(...(page.body[field] as { id: string }[]));
        cursor = page.body.next_cursor as string | null;
      } while (cursor);
      return items;
    };
    const allGroups = (token: string) => allPages(token, '/groups?limit=50', 'groups');
    const allRuns = (token: string) => allPages(token, '/runs?limit=100', 'data');
    for (const [u, user] of users.entries()) {
      await expect
        .poll(
          async () => {
            const runs = await allRuns(user.token);
            const groups = await allGroups(user.token);
            return {
              runs: acknowledged.runs[u]!.filter((id) => !runs.some((r) => r.id === id)),
              groups: acknowledged.groups[u]!.filter((id) => !groups.some((g) => g.id === id)),
            };
          },
          { timeout: 10_000, interval: 250 },
        )
        .toEqual({ runs: [], groups: [] });
    }

    // A new write after the outage is visible in a read within 3 s of sending it.
    const deadline = Date.now() + 3_000;
    const after = await call(
      users[0]!.token,
      'POST',
      '/runs',
      runBody(new Date(now - 2 * 24 * 3_600_000).toISOString(), 1),
    );
    expect(after.status).toBe(201);
    await expect
      .poll(async () => (await allRuns(users[0]!.token)).some((r) => r.id === after.body.data.id), {
        timeout: Math.max(1, deadline - Date.now()),
        interval: 50,
      })
      .toBe(true);
    expect(server.output()).not.toMatch(/"level":(50|60).*unhandled/);
  }, 240_000);

  it('an idle server re-establishes LISTEN after its sessions are terminated: a new write shows within 3 s, /realtime delivers', async () => {
    await healthy();
    const user = await signUpOverHttp(server.url, 'idle', nextIp());
    const stream = await openEventStream(`${server.url}/realtime?access_token=${user.token}`);
    try {
      await expect.poll(() => stream.events.map((e) => e.event), { timeout: 5_000 }).toContain('ready');
      const before = (await (await fetch(`${server.url}/health`)).json()) as {
        listen: { channel: string; reconnects: number }[];
      };

      const terminated = await terminateAll();
      expect(terminated).toBeGreaterThan(0);

      // The realtime hub's LISTEN is back and tells its clients to refetch everything (messages may have been missed).
      await expect
        .poll(
          () =>
            stream.events.some(
              (e) => e.event === 'changed' && (e.data as { topics: string[] }).topics.length === changeTopics.length,
            ),
          {
            timeout: 5_000,
          },
        )
        .toBe(true);
      await healthy();
      const health = (await (await fetch(`${server.url}/health`)).json()) as {
        listen: { channel: string; connected: boolean; reconnects: number }[];
      };
      for (const channel of health.listen) {
        const was = before.listen.find((l) => l.channel === channel.channel)?.reconnects ?? 0;
        expect(channel).toMatchObject({ connected: true, reconnects: was + 1 });
      }
      expect(health.listen.map((l) => l.channel).sort()).toEqual(['es_appended', 'realtime_changes']);

      // Visible within 3 s of sending it: the answer (which waits at most 2 s for its read models), then a read.
      const seen = stream.events.length;
      const deadline = Date.now() + 3_000;
      const saved = await call(user.token, 'POST', '/runs', runBody(new Date(Date.now() - 3_600_000).toISOString(), 1));
      expect(saved.status).toBe(201);
      await expect
        .poll(async () => (await call(user.token, 'GET', '/runs')).body.data.map((r: { id: string }) => r.id), {
          timeout: Math.max(1, deadline - Date.now()),
          interval: 50,
        })
        .toContain(saved.body.data.id);
      await expect
        .poll(
          () =>
            stream.events
              .slice(seen)
              .some((e) => e.event === 'changed' && (e.data as { topics: string[] }).topics.includes('runs')),
          { timeout: Math.max(1, deadline - Date.now()), interval: 50 },
        )
        .toBe(true);
      console.log(
        `idle server: ${terminated} sessions terminated; LISTEN back on ${health.listen.map((l) => l.channel).join(', ')}`,
      );
    } finally {
      stream.close();
    }
    expect(server.alive(), server.output()).toBe(true);
  }, 120_000);
});
