import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

describe('CORS: the web app and the native shell may call the API, other sites may not', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('pglite', { workers: false });
  });
  afterAll(async () => rt?.close());

  const preflight = (path: string, origin: string) =>
    rt.request('OPTIONS', path, {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it.each(['http://localhost:5173', 'capacitor://localhost', 'https://localhost'])(
    'allows %s on the product API and the auth API',
    async (origin) => {
      for (const path of ['/goals', '/auth/v1/token']) {
        const res = await preflight(path, origin);
        expect(res.headers.get('access-control-allow-origin'), path).toBe(origin);
      }
    },
  );

  it('does not allow another origin', async () => {
    const res = await preflight('/goals', 'https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });

  it("answers the web app's simple requests with its origin and the headers it may read", async () => {
    const res = await rt.request('GET', '/charities', { headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('says a request without Origin varies by Origin, and grants nothing', async () => {
    const res = await rt.request('GET', '/charities');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('still refuses a body over 2 MB', async () => {
    const res = await rt.request('POST', '/goals', { body: 'x'.repeat(2 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body too large' });
  });
});
