import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { webAppServer } from '../../../app-server/web-static.ts';
import { type TestRuntime, startTestRuntime } from '../../support/test-runtime.ts';

/** Debian's chromium, as FACTS.md "Toolchain" describes (playwright cannot download browsers here). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A real API, the built web app on its own origin, and a browser: the whole product as a user meets it. */
export interface E2eStack {
  readonly runtime: TestRuntime;
  readonly apiUrl: string;
  readonly webUrl: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

async function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<{ server: ServerType; url: string }> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((done) => server.once('listening', () => done()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: ServerType) => new Promise<void>((done) => server.close(() => done()));

/**
 * Both servers listen first (ports are needed before the build and the runtime know each other's address), then
 * the server starts on PGlite with APP_URL = the web origin (CORS, auth redirects) and PUBLIC_URL = the API (mailed
 * links), then Vite builds web/ into a scratch folder with VITE_API_URL pointing at the API.
 */
export async function startE2eStack(): Promise<E2eStack> {
  let apiFetch: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const api = await listen((request) => apiFetch(request));
  const outDir = mkdtempSync(join(tmpdir(), 'stridestake-web-'));
  const web = await listen(webAppServer(outDir).fetch);
  // The browser and the auth client judge token expiry by the wall clock, so the server's clock starts at real time.
  const runtime = await startTestRuntime('pglite', {
    now: new Date().toISOString(),
    config: { APP_URL: web.url, PUBLIC_URL: api.url },
  });
  apiFetch = runtime.app.fetch;
  const previous = process.env.VITE_API_URL;
  process.env.VITE_API_URL = api.url;
  try {
    await build({
      root: resolve(import.meta.dirname, '../../../web'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
  } finally {
    if (previous === undefined) delete process.env.VITE_API_URL;
    else process.env.VITE_API_URL = previous;
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return {
    runtime,
    apiUrl: api.url,
    webUrl: web.url,
    browser,
    async close() {
      await browser.close();
      await Promise.all([close(api.server), close(web.server)]);
      await runtime.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
