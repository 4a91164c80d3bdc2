import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../../app-server/http/openapi/openapi-document.ts';
import { ROUTE_DOCS } from '../../app-server/http/openapi/route-docs.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

describe('GET /openapi.json', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('pglite', { workers: false });
  }, 60_000);
  afterAll(async () => rt?.close());

  it('lists every route the app registered (middleware excepted)', async () => {
    const res = await rt.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const missing = rt.app.routes
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .filter((r) => !res.body.paths[openApiPath(r.path)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('describes each documented route from its zod schemas, and each of them exists in the app', async () => {
    const { paths } = (await rt.request('GET', '/openapi.json')).body;
    const registered = new Set(rt.app.routes.map((r) => `${r.method.toLowerCase()} ${r.path}`));
    for (const doc of ROUTE_DOCS) {
      expect(registered.has(`${doc.method} ${doc.path}`), `${doc.method} ${doc.path}`).toBe(true);
      expect(paths[openApiPath(doc.path)][doc.method].summary).toBe(doc.summary);
    }
    const badges = paths['/me/badges'].get;
    expect(badges.parameters.map((p: { name: string }) => p.name)).toEqual(['uncelebrated', 'limit']);
    expect(badges.responses['200'].content['application/json'].schema.properties.data.type).toBe('array');
    expect(paths['/me/badges/{id}/celebrate'].post.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
    });
    expect(paths['/me/streak'].get.security).toEqual([{ bearer: [] }]);
  });

  it('describes every product route with a schema-backed entry (the GoTrue-compatible /auth/v1 is documented in docs/auth.md)', async () => {
    const documented = new Set(ROUTE_DOCS.map((d) => `${d.method} ${d.path}`));
    const undocumented = rt.app.routes
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .filter((r) => !r.path.startsWith('/auth/v1') && !r.path.startsWith('/dev/'))
      .map((r) => `${r.method.toLowerCase()} ${r.path}`)
      .filter((route) => !documented.has(route));
    expect([...new Set(undocumented)]).toEqual([]);
    const { paths } = (await rt.request('GET', '/openapi.json')).body;
    const goalBody = paths['/goals'].post.requestBody.content['application/json'].schema;
    expect(goalBody.properties.stake_amount_cents).toBeDefined();
    expect(goalBody.properties.type.enum).toEqual(['distance', 'count']);
  });
});
