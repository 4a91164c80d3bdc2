import { describe, expect, it } from 'vitest';
import { isSameOriginApiPath, withSameOriginApi } from '../../app-server/web-with-api.ts';

/** What a fake handler was asked: the method, the path with its query, the body and the env it was given. */
const recorder = (name: string) => async (request: Request, env?: unknown) =>
  Response.json({
    name,
    method: request.method,
    path: new URL(request.url).pathname + new URL(request.url).search,
    body: request.method === 'GET' || request.method === 'HEAD' ? null : await request.text(),
    env,
  });

describe('the API on the web app’s own origin (npm start, web-with-api.ts)', () => {
  const fetch = withSameOriginApi(recorder('web'), recorder('api'));
  const ask = async (path: string, init?: RequestInit) =>
    (await (await fetch(new Request(`http://localhost:5173${path}`, init), { incoming: 'conn' })).json()) as Record<
      string,
      unknown
    >;

  it('hands /api/… to the API without the prefix, query, method, body and connection kept', async () => {
    expect(await ask('/api/goals/current?x=1')).toMatchObject({
      name: 'api',
      method: 'GET',
      path: '/goals/current?x=1',
    });
    expect(
      await ask('/api/runs', {
        method: 'POST',
        body: '{"distance_km":5}',
        headers: { 'content-type': 'application/json' },
      }),
    ).toMatchObject({
      name: 'api',
      method: 'POST',
      path: '/runs',
      body: '{"distance_km":5}',
      env: { incoming: 'conn' },
    });
    // The API's own /api/… routes keep theirs: /api/api/payment/… on the web origin.
    expect(await ask('/api/api/payment/config')).toMatchObject({ name: 'api', path: '/api/payment/config' });
    expect(await ask('/api')).toMatchObject({ name: 'api', path: '/' });
  });

  it('leaves every other path to the web app: pages, assets, and names that only start like it', async () => {
    for (const path of ['/', '/app', '/goals/123', '/assets/app.js', '/apis', '/apiary/x', '/app/api/x']) {
      expect(await ask(path), path).toMatchObject({ name: 'web', path });
    }
    expect(isSameOriginApiPath('/api/')).toBe(true);
    expect(isSameOriginApiPath('/apix')).toBe(false);
  });
});
