import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser } from 'playwright-core';
import { inject } from 'vitest';
import type { Config } from '../../../app-server/config.ts';
import { webSecurityHeaders } from '../../../app-server/http/security-headers.ts';
import { type DatabaseTarget, type TestRuntime, startTestRuntime } from '../../support/test-runtime.ts';
import { launchChromium } from './chromium.ts';
import { buildWebApp, webAppServerFor } from './web-build.ts';

/** A real API, the built web app on its own origin, and a browser: the whole product as a user meets it. */
export interface E2eStack {
  readonly runtime: TestRuntime;
  readonly apiUrl: string;
  readonly webUrl: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

export interface E2eStackOptions {
  /** Server configuration on top of the test defaults (e.g. a Strava stand-in's address). */
  readonly config?: Partial<Config>;
  /**
   * The database engine: PGlite, as `npm start` runs by default, unless E2E_DATABASE=postgres asks for a scratch
   * database on the DATABASE_URL server.
   */
  readonly target?: DatabaseTarget;
  /** The server's (manual) clock at start; default: now, the browser's own time. */
  readonly now?: string;
  /** PGlite on disk instead of in memory (a CLI can open it after close). */
  readonly dataDir?: string;
  /**
   * Serve the web app with the production header policy (CSP, no framing: app-server/http/security-headers.ts). On by
   * default, so every journey runs under the CSP users get; false only to look at a page without it.
   */
  readonly securityHeaders?: boolean;
  /** A web build of the test's own (e.g. made with VITE_SENTRY_DSN) instead of the shared one; not removed on close. */
  readonly webBuildDir?: string;
}

function defaultTarget(): DatabaseTarget {
  if (process.env.E2E_DATABASE !== 'postgres') return 'pglite';
  if (!process.env.DATABASE_URL) throw new Error('E2E_DATABASE=postgres needs DATABASE_URL');
  return 'postgres';
}

async function listen(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<{ server: ServerType; url: string }> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((done) => server.once('listening', () => done()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: ServerType) => new Promise<void>((done) => server.close(() => done()));

/**
 * The web build this file serves: the one global-setup.ts made for the whole run, or (when the file runs under a
 * configuration without that setup) a build of its own, removed on close.
 */
async function webBuild(): Promise<{ dir: string; own: boolean }> {
  const shared = inject('e2eWebBuild');
  if (shared) return { dir: shared, own: false };
  const dir = mkdtempSync(join(tmpdir(), 'stridestake-web-'));
  await buildWebApp(dir);
  return { dir, own: true };
}

/**
 * Both servers listen first (each needs the other's address), then the server starts (PGlite) with APP_URL = the
 * web origin (CORS, auth redirects) and PUBLIC_URL = the API (mailed links). The web origin serves the shared build
 * with this file's API address in its scripts; then a browser starts. The server's clock is a ManualClock, by default
 * starting at real time (the browser and the auth client judge token expiry by the browser's clock: a journey that
 * starts the server elsewhere in time installs the page's clock there too).
 */
export async function startE2eStack(options: E2eStackOptions = {}): Promise<E2eStack> {
  const build = options.webBuildDir ? { dir: options.webBuildDir, own: false } : await webBuild();
  let apiFetch: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const api = await listen((request) => apiFetch(request));
  let webFetch: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const web = await listen((request) => webFetch(request));
  const security =
    (options.securityHeaders ?? true)
      ? webSecurityHeaders({
          PUBLIC_URL: api.url,
          APP_URL: web.url,
          STRIPE_SECRET_KEY: options.config?.STRIPE_SECRET_KEY,
          VITE_SENTRY_DSN: options.config?.VITE_SENTRY_DSN,
        })
      : undefined;
  webFetch = webAppServerFor(build.dir, api.url, security).fetch;
  const runtime = await startTestRuntime(options.target ?? defaultTarget(), {
    now: options.now ?? new Date().toISOString(),
    config: { APP_URL: web.url, PUBLIC_URL: api.url, ...options.config },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
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
      if (build.own) rmSync(build.dir, { recursive: true, force: true });
    },
  };
}
