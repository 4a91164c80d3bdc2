import { afterAll, describe, expect, it } from 'vitest';
import { CATCHING_UP_HEADER, READ_MODELS_WAIT_MS } from '../../app-server/http/read-your-writes.ts';
import { type Deployment, scratchDeployment } from '../support/deployment.ts';
import { signUpOverHttp, startServerProcess, startWorkerProcess } from '../support/server-process.ts';

/**
 * A worker lingers after a short batch (WORKER_LINGER_MS) so a stream of writes is applied a batch at a time; a write
 * whose answer waits for an asynchronous read model must not wait out that linger (app-server/process/
 * read-models-wanted.ts). Here the worker lingers far longer than a write waits for its read models, so a write that
 * did not end the linger would be answered without them (`catching_up`). PostgreSQL only: an API and a worker apart.
 */
const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];
const LINGER_MS = 4 * READ_MODELS_WAIT_MS;

describe.each(postgres)('a write waiting for its read models ends the worker’s linger (%s)', (baseUrl) => {
  let deployment: Deployment | undefined;

  afterAll(async () => {
    await deployment?.close();
  });

  it('answers writes in full one after another while the worker would linger between them', async () => {
    deployment = await scratchDeployment(baseUrl, 'ss_wanted');
    const { env, port, apis, workers } = deployment;
    const api = await startServerProcess({ ...env, RUN_WORKERS: 'false', PORT: port });
    apis.push(api);
    workers.push(await startWorkerProcess({ ...env, WORKER_LINGER_MS: String(LINGER_MS) }));
    const runner = await signUpOverHttp(api.url, 'wanted', '10.67.0.1');

    // The sign-up's events, then each group's, are applied in a batch of their own, after which the worker lingers:
    // each next write arrives during a linger.
    for (const name of ['Early Birds', 'Night Owls', 'Trail Crew']) {
      const res = await fetch(`${api.url}/groups`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${runner.token}`,
          'content-type': 'application/json',
          'x-forwarded-for': '10.67.0.1',
        },
        body: JSON.stringify({ name }),
      });
      const body = (await res.json()) as { data: { name?: string }; catching_up?: string[] };
      expect(res.status).toBe(201);
      expect(res.headers.get(CATCHING_UP_HEADER)).toBeNull();
      expect(body.catching_up).toBeUndefined();
      // The answer read the group from the groups read model: the worker applied it for this request.
      expect(body.data.name).toBe(name);
    }
  }, 120_000);
});
