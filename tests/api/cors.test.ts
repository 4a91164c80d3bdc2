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
});
