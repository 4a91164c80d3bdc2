import { afterAll, describe, expect, it } from 'vitest';
import { type Deployment, scratchDeployment } from '../support/deployment.ts';
import {
  type ServerProcess,
  signUpOverHttp,
  startServerProcess,
  startWorkerProcess,
} from '../support/server-process.ts';
import { runBody } from '../support/users.ts';

/**
 * As deployed (docker-compose.yml): API replicas that serve requests only (RUN_WORKERS=false) and workers that follow
 * the log, all on one PostgreSQL database. A worker killed with SIGKILL mid-stream (no shutdown, its sessions and locks
 * dropped by the server) must cost nothing: the other worker takes over its share, every run an API acknowledged is
 * visible through the other API within 3 s, and each is counted once in its goal. PostgreSQL only.
 */
const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];

describe.each(postgres)('two APIs and two workers, one killed with SIGKILL while runners post (%s)', (baseUrl) => {
  let deployment: Deployment | undefined;

  afterAll(async () => {
    await deployment?.close();
  });

  it('every acknowledged run is visible through the other API within 3 s, and counted once', async () => {
    // Four runners from one address post faster than a person would.
    deployment = await scratchDeployment(baseUrl, 'ss_multi', { RATE_LIMIT_MULTIPLIER: '1000' });
    const { env, port, apis, workers } = deployment;
    // One first, so the schema exists before the others start (their racing start is concurrent-start.test.ts's).
    apis.push(await startServerProcess({ ...env, RUN_WORKERS: 'false', PORT: port }));
    apis.push(await startServerProcess({ ...env, RUN_WORKERS: 'false' }));
    workers.push(await startWorkerProcess(env), await startWorkerProcess(env));
    const [a, b] = apis as [ServerProcess, ServerProcess];

    const call = async (server: ServerProcess, token: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-forwarded-for': '10.66.0.1',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the test reads the API's JSON answers
      return { status: res.status, body: (await res.json()) as any };
    };

    const runners = await Promise.all([0, 1, 2, 3].map((i) => signUpOverHttp(a.url, `multi${i}`, `10.66.1.${i}`)));
    for (const runner of runners) {
      expect((await call(a, runner.token, 'POST', '/goals', { type: 'distance', target_value: 100 })).status).toBe(201);
    }

    const now = Date.now();
    const acknowledged: { runner: number; id: string; km: number; startedAt: string; seenLateMs: number }[] = [];
    const statuses = new Map<number, number>();
    const RUNS_EACH = 6;
    const post = async (r: number) => {
      const runner = runners[r]!;
      for (let k = 0; k < RUNS_EACH; k++) {
        // Alternate the API each run goes through; read it back through the other one.
        const [through, other] = (k + r) % 2 === 0 ? [a, b] : [b, a];
        // A kilometre every 10 minutes, walking back in time: plausible, never overlapping.
        const startedAt = new Date(now - (k + 1) * 10 * 60_000).toISOString();
        const saved = await call(through, runner.token, 'POST', '/runs', runBody(startedAt, 1));
        statuses.set(saved.status, (statuses.get(saved.status) ?? 0) + 1);
        if (saved.status !== 201) continue;
        const id = saved.body.data.id as string;
        const ackedAt = Date.now();
        let seen = false;
        while (!seen && Date.now() - ackedAt < 3_000) {
          const page = await call(other, runner.token, 'GET', '/runs?limit=100');
          seen = (page.body.data as { id: string }[]).some((run) => run.id === id);
          if (!seen) await new Promise((res) => setTimeout(res, 50));
        }
        acknowledged.push({ runner: r, id, km: 1, startedAt, seenLateMs: seen ? 0 : Date.now() - ackedAt });
      }
    };

    // The posting starts; once a few runs are through, the first worker is killed without a word.
    const posting = Promise.all(runners.map((_, r) => post(r)));
    while (acknowledged.length < 3) await new Promise((res) => setTimeout(res, 10));
    workers[0]!.child.kill('SIGKILL');
    const ackedBeforeKill = acknowledged.length;
    await posting;
    expect(ackedBeforeKill).toBeLessThan((runners.length * RUNS_EACH) / 2);

    expect(workers[0]!.alive()).toBe(false);
    expect(workers[1]!.alive(), workers[1]!.output()).toBe(true);
    // A worker's death is no client's problem: every run was saved (201).
    expect(Object.fromEntries(statuses)).toEqual({ 201: runners.length * RUNS_EACH });
    expect(acknowledged.filter((run) => run.seenLateMs > 0)).toEqual([]);

    // Counted once: each runner's list holds each run once, and the goal's progress is the sum of this week's runs.
    for (const [r, runner] of runners.entries()) {
      const mine = acknowledged.filter((run) => run.runner === r);
      const listed = (await call(b, runner.token, 'GET', '/runs?limit=100')).body.data as { id: string }[];
      expect(listed.map((run) => run.id).sort()).toEqual(mine.map((run) => run.id).sort());
      const goal = (await call(a, runner.token, 'GET', '/goals/current')).body.data as {
        progress: number;
        period_start: string;
      };
      const thisWeek = mine.filter((run) => Date.parse(run.startedAt) >= Date.parse(goal.period_start));
      await expect
        .poll(async () => (await call(a, runner.token, 'GET', '/goals/current')).body.data.progress, { timeout: 3_000 })
        .toBeCloseTo(
          thisWeek.reduce((sum, run) => sum + run.km, 0),
          6,
        );
    }
  }, 180_000);
});
