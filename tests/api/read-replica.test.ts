import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  READ_AFTER_HEADER,
  READ_FROM_HEADER,
  READ_POSITION_HEADER,
} from '../../app-server/http/middleware/read-routing.ts';
import { ROUTE_DOCS } from '../../app-server/http/openapi/route-docs.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, settle, type TestUser } from '../support/users.ts';
import { authClient } from './auth-helpers.ts';

/**
 * Reads on a real streaming replica (a hot standby made by `pg_basebackup -R`, started by .ci/run on port 5433 and
 * named by READ_REPLICA_URL), writes on the primary (app-server/db/read-replica.ts). The replica's replay is paused to
 * make it lag on purpose: what the tests see then can only come from where the routing sent each query.
 */
const replicas = process.env.DATABASE_URL && process.env.READ_REPLICA_URL ? [process.env.READ_REPLICA_URL] : [];

describe.each(replicas)('reads on the streaming replica %s', (replicaUrl) => {
  let rt: TestRuntime;
  let replica: pg.Client;
  let ana: TestUser;

  beforeAll(async () => {
    rt = await startTestRuntime('postgres', { now: '2026-11-18T12:00:00Z', readReplica: replicaUrl });
    replica = new pg.Client({ connectionString: replicaUrl });
    await replica.connect();
    ana = await createTestUser(rt, 'ana');
  }, 60_000);
  afterAll(async () => {
    await replica?.query('SELECT pg_wal_replay_resume()').catch(() => {});
    await replica?.end();
    await rt?.close();
  });

  const get = (user: TestUser, path: string, after?: string) =>
    rt.request('GET', path, { token: user.token, ...(after ? { headers: { [READ_AFTER_HEADER]: after } } : {}) });
  const runIds = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
  const paused = async <T>(work: () => Promise<T>): Promise<T> => {
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      return await work();
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
  };

  it('a pure read is served by the replica; a read sending back its write position sees the write even while the replica lags', async () => {
    const goal = await rt.request('POST', '/goals', { token: ana.token, body: { type: 'distance', target_value: 20 } });
    expect(goal.status).toBe(201);
    expect(goal.headers.get(READ_POSITION_HEADER)).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    await settle(rt);

    const last = await paused(async () => {
      const saved = await rt.request('POST', '/runs', { token: ana.token, body: runBody('2026-11-18T07:00:00Z', 5) });
      expect(saved.status).toBe(201);
      const position = saved.headers.get(READ_POSITION_HEADER)!;
      await settle(rt);

      // Without the position: the replica, which has not replayed the run.
      const stale = await get(ana, '/runs?limit=10');
      expect(stale.status).toBe(200);
      expect(stale.headers.get(READ_FROM_HEADER)).toBe('replica');
      expect(runIds(stale)).not.toContain(saved.body.data.id);

      // With it: the primary, where the run and the goal's progress are.
      const fresh = await get(ana, '/runs?limit=10', position);
      expect(fresh.headers.get(READ_FROM_HEADER)).toBe('primary');
      expect(runIds(fresh)).toContain(saved.body.data.id);
      const progress = await get(ana, '/goals/current', position);
      expect(progress.body.data.progress).toBeCloseTo(5, 6);
      return saved.body.data.id as string;
    });

    // Replay resumed: the same read is served by the replica again, with the run, within 3 s. (The run's id comes
    // from its answer: a read right after the resume may still be the replica's, without it.)
    const deadline = Date.now() + 3_000;
    let res = await get(ana, '/runs?limit=10');
    while (!runIds(res).includes(last) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      res = await get(ana, '/runs?limit=10');
    }
    expect(res.headers.get(READ_FROM_HEADER)).toBe('replica');
    expect(runIds(res)).toContain(last);
  });

  it('writes and the session check stay on the primary: a sign-out is refused at once while the replica lags', async () => {
    const ben = await createTestUser(rt, 'ben');
    await paused(async () => {
      // A write while the replica replays nothing: saved on the primary.
      const goal = await rt.request('POST', '/goals', {
        token: ben.token,
        body: { type: 'distance', target_value: 15 },
      });
      expect(goal.status).toBe(201);
      const out = await authClient(rt)('POST', '/auth/v1/logout', { token: ben.token });
      expect(out.status).toBe(204);
      // The replica still has ben's session; the API asks the primary.
      const after = await get(ben, '/goals/current');
      expect(after.status).toBe(401);
    });
  });

  it('every pure read route answers on the replica without a server error (none of them writes)', async () => {
    await settle(rt);
    const reads = ROUTE_DOCS.filter(
      (d) => d.method === 'get' && (d.limit.class === 'read' || d.limit.class === 'public'),
    );
    expect(reads.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const doc of reads) {
      const path = doc.path.replace(/:[a-zA-Z_]+/g, '00000000-0000-4000-8000-000000000000');
      const res = await get(ana, path);
      if (res.status >= 500 || res.headers.get(READ_FROM_HEADER) !== 'replica') {
        failures.push(`${doc.path}: ${res.status} from ${res.headers.get(READ_FROM_HEADER)} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a malformed read position with a 400 and a sentence', async () => {
    for (const bad of ['', 'x', '0/0/0', '1/GG', '123456789/0', '-1/0', '0x1/0']) {
      const res = await get(ana, '/runs', bad === '' ? 'not-a-position' : bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe(`Invalid ${READ_AFTER_HEADER} header`);
    }
  });
});
