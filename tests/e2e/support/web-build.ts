import { readFile } from 'node:fs/promises';
import { join, normalize, resolve } from 'node:path';
import { Hono } from 'hono';
import { build } from 'vite';
import type { WebSecurityHeaders } from '../../../app-server/http/security-headers.ts';
import { webAppServer } from '../../../app-server/web-static.ts';

/**
 * The API address baked into the shared e2e build. It names no real host (`.invalid` never resolves); each e2e
 * file's web server swaps it for that file's own API address as it serves the scripts, so one build serves every
 * file although each file's API listens on a port chosen at run time.
 */
export const API_URL_PLACEHOLDER = 'http://stridestake-e2e-api.invalid';

/** What a build may be made with besides the defaults: a build-time variable (VITE_SENTRY_DSN), another mode. */
export interface WebBuildOptions {
  /** Vite's mode; 'development' makes a development build (import.meta.env.PROD false). Default 'production'. */
  readonly mode?: 'production' | 'development';
  readonly sentryDsn?: string;
}

/** Builds web/ into `outDir` with the placeholder API address (a production build, as `npm start` serves it). */
export async function buildWebApp(outDir: string, options: WebBuildOptions = {}): Promise<void> {
  const mode = options.mode ?? 'production';
  // Vitest runs with NODE_ENV=test, and Vite builds a development bundle under it (React's development build,
  // import.meta.env.DEV, no service worker): the build is made with NODE_ENV=production, as `npm start` makes it.
  const previous = {
    api: process.env.VITE_API_URL,
    nodeEnv: process.env.NODE_ENV,
    sentry: process.env.VITE_SENTRY_DSN,
  };
  process.env.VITE_API_URL = API_URL_PLACEHOLDER;
  process.env.NODE_ENV = mode;
  if (options.sentryDsn) process.env.VITE_SENTRY_DSN = options.sentryDsn;
  else delete process.env.VITE_SENTRY_DSN;
  try {
    await build({
      root: resolve(import.meta.dirname, '../../../web'),
      mode,
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
  } finally {
    for (const [name, value] of [
      ['VITE_API_URL', previous.api],
      ['NODE_ENV', previous.nodeEnv],
      ['VITE_SENTRY_DSN', previous.sentry],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The pages a client route is answered with, as app-server/web-static.ts picks them. */
const PAGES: Readonly<Record<string, string>> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.html': 'app.html',
};

/**
 * Serves a build made by `buildWebApp` as `npm start` serves web/dist (app-server/web-static.ts), except that the
 * scripts and the pages (app.html starts the first screen's requests inline) name `apiUrl` where the build has the
 * placeholder. Rewritten files are kept in memory.
 */
export function webAppServerFor(buildDir: string, apiUrl: string, security?: WebSecurityHeaders) {
  const rewritten = new Map<string, Promise<string>>();
  const root = resolve(buildDir);
  const app = new Hono();
  // With the production header policy (CSP, no framing…), as app-server/main.ts serves web/dist.
  if (security) app.use(security.middleware);
  app.get('*', async (c, next) => {
    // A client route (no file extension) gets app.html, `/` the landing page; files and assets are served below.
    const page =
      PAGES[c.req.path] ?? (c.req.path.startsWith('/assets/') || /\.\w+$/.test(c.req.path) ? null : 'app.html');
    if (!page) return next();
    const file = join(root, page);
    let text = rewritten.get(file);
    if (!text) {
      text = readFile(file, 'utf8').then((source) => source.replaceAll(API_URL_PLACEHOLDER, apiUrl));
      rewritten.set(file, text);
    }
    const html = await text;
    return c.body(html, 200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      ...(security ? { 'content-security-policy': security.pagePolicy(html) } : {}),
    });
  });
  app.get('/assets/*', async (c, next) => {
    const file = normalize(join(root, c.req.path));
    if (!file.endsWith('.js') || !file.startsWith(`${root}/`)) return next();
    let text = rewritten.get(file);
    if (!text) {
      text = readFile(file, 'utf8').then((source) => source.replaceAll(API_URL_PLACEHOLDER, apiUrl));
      rewritten.set(file, text);
    }
    try {
      return c.body(await text, 200, { 'content-type': 'text/javascript; charset=utf-8' });
    } catch {
      rewritten.delete(file);
      return next();
    }
  });
  app.route('/', webAppServer(buildDir, security));
  return app;
}
