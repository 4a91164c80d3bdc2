import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { build } from 'vite';
import { webAppServer } from '../../../app-server/web-static.ts';
import { startTestRuntime } from '../../support/test-runtime.ts';
import type { E2eStack } from '../../e2e/support/e2e-stack.ts';
import { launchChromium } from '../../e2e/support/chromium.ts';

async function listen(fetch: (request: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((done) => server.once('listening', () => done()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: ServerType) => new Promise<void>((done) => server.close(() => done()));

/**
 * The product as `npm start` serves it, for the web bench: the API in process (PGlite), a production build of web/
 * made for this API's address, served by the real static server (app-server/web-static.ts: precompressed files,
 * cache headers), and Debian's chromium. Shaped as the e2e stack, so the journeys' helpers work with it.
 */
export async function startWebBenchStack(): Promise<E2eStack> {
  let apiFetch: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const api = await listen((request) => apiFetch(request));
  const dir = mkdtempSync(join(tmpdir(), 'stridestake-web-bench-'));
  const previous = process.env.VITE_API_URL;
  process.env.VITE_API_URL = api.url;
  try {
    await build({
      root: resolve(import.meta.dirname, '../../../web'),
      logLevel: 'error',
      build: { outDir: dir, emptyOutDir: true, sourcemap: false },
    });
  } finally {
    if (previous === undefined) delete process.env.VITE_API_URL;
    else process.env.VITE_API_URL = previous;
  }
  const web = await listen(webAppServer(dir).fetch);
  const runtime = await startTestRuntime('pglite', {
    now: new Date().toISOString(),
    config: { APP_URL: web.url, PUBLIC_URL: api.url },
  });
  apiFetch = runtime.app.fetch;
  const browser = await launchChromium();
  return {
    runtime,
    apiUrl: api.url,
    webUrl: web.url,
    browser,
    async close() {
      await browser.close();
      await Promise.all([close(api.server), close(web.server)]);
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
