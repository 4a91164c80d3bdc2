import { afterAll, describe, expect, it } from 'vitest';
import { type Deployment, scratchDeployment } from '../support/deployment.ts';
import { type ServerProcess, startServerProcess, startWorkerProcess } from '../support/server-process.ts';

/**
 * docker-compose.yml starts API replicas (RUN_WORKERS=false) and a worker at the same moment on a fresh database.
 * Each process migrates the schema and creates the read models' tables at start: two `CREATE TABLE IF NOT EXISTS`
 * of one table at once fail in PostgreSQL (`pg_type_typname_nsp_index`), and a process that lost the race exited.
 * All schema work runs under one advisory lock (app-server/db/schema-lock.ts); this starts four processes at the
 * same instant on a fresh database and holds them to staying up and serving. PostgreSQL only (PGlite is one process).
 */
const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];

describe.each(postgres)('two APIs and two workers started at once on a fresh database (%s)', (baseUrl) => {
  let deployment: Deployment | undefined;

  afterAll(async () => {
    await deployment?.close();
  });

  it('all four start, stay up, and both APIs serve (a sign-up on one, a sign-in on the other)', async () => {
    deployment = await scratchDeployment(baseUrl, 'ss_start');
    const { env, port, apis, workers } = deployment;
    const api = (extra: Record<string, string>) => startServerProcess({ ...env, RUN_WORKERS: 'false', ...extra });
    // Spawned in the same tick: each races the others through migrations and read-model creation.
    const started = await Promise.allSettled([
      api({ PORT: port }),
      api({}),
      startWorkerProcess(env),
      startWorkerProcess(env),
    ]);
    for (const result of started) {
      if (result.status === 'fulfilled') {
        if ('url' in result.value) apis.push(result.value);
        else workers.push(result.value);
      }
    }
    const failures = started.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    expect(failures).toEqual([]);
    const [first, second] = apis as [ServerProcess, ServerProcess];

    for (const server of apis) expect((await fetch(`${server.url}/health`)).status).toBe(200);

    // A sign-up through the first API, a sign-in with the same password through the second.
    const email = `start-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const password = 'correct horse battery';
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '10.77.0.1' };
    const post = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const signup = await post(first.url, '/auth/v1/signup', {
      email,
      password,
      data: { display_name: 'Starter', timezone: 'Europe/Paris' },
    });
    expect(signup.status).toBe(200);
    const mail = (await (await fetch(`${first.url}/dev/mail?to=${encodeURIComponent(email)}`)).json()) as {
      mail: { text: string }[];
    };
    const code = /(\d{6})/.exec(mail.mail[0]?.text.split('code')[1] ?? '')?.[1] ?? '';
    expect((await post(first.url, '/auth/v1/verify', { type: 'signup', email, token: code })).status).toBe(200);
    const signIn = await post(second.url, '/auth/v1/token?grant_type=password', { email, password });
    expect(signIn.status).toBe(200);
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const goals = await fetch(`${second.url}/goals/current`, { headers: { authorization: `Bearer ${token}` } });
    expect(goals.status).toBe(200);

    // Still all up a moment later (a worker that lost a race would have exited by now).
    await new Promise((r) => setTimeout(r, 1_000));
    const down = [...apis, ...workers].filter((p) => !p.alive()).map((p) => p.output());
    expect(down).toEqual([]);
    for (const server of apis) expect((await fetch(`${server.url}/health`)).status).toBe(200);
  }, 180_000);
});
