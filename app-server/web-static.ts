import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { Hono } from 'hono';
import type { WebSecurityHeaders } from './http/security-headers.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Text formats worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.webmanifest', '.svg', '.txt', '.xml']);
/** Below this a compressed answer saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;

/** Vite names what it puts in /assets/ by content hash: the same URL never holds other bytes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page, the service worker and the manifest name the hashed files: always asked again (a 304 when unchanged). */
export const REVALIDATE = 'no-cache';
/** Icons and other public files keep their names across releases: an hour, then asked again. */
const SHORT = 'public, max-age=3600';
const ALWAYS_REVALIDATED = new Set(['/index.html', '/app.html', '/sw.js', '/push-sw.js', '/manifest.webmanifest']);

type Encoding = 'br' | 'gzip';

/** The encodings a request accepts, best first (brotli is smaller than gzip for the same file). */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(ok);
}

interface Loaded {
  readonly body: Uint8Array;
  readonly mtimeMs: number;
}

/**
 * Serves the built web app (web/dist) as a single-page app, as fast as the budgets of tests/e2e/bundle-budget.test.ts
 * assume: files as they are, compressed (the build's precompressed `.br`/`.gz` beside each file, else compressed
 * here once and kept in memory), hashed assets cached for a year as immutable, the page, service worker and manifest
 * revalidated on every load (ETag, 304). `/` answers index.html (the landing page, prerendered at build) and every
 * other GET without a file app.html (the page with an empty root), so client-side routes (/app, /goals/…) survive a
 * reload; a missing file under /assets/ is a 404, never the page (a stale chunk must fail
 * as a script, and must not be cached as one). `npm start` runs it beside the API on WEB_PORT.
 */
export function webAppServer(distDir: string, security?: WebSecurityHeaders) {
  const root = resolve(distDir);
  const compressed = new Map<string, Promise<Uint8Array>>();
  // Each page's CSP names its inline scripts' hashes: worked out once per version of the file.
  const pagePolicies = new Map<string, string>();
  const pagePolicy = (path: string, file: Loaded, policy: (html: string) => string): string => {
    const key = `${path}|${file.mtimeMs}`;
    let value = pagePolicies.get(key);
    if (value === undefined) {
      value = policy(Buffer.from(file.body).toString('utf8'));
      pagePolicies.set(key, value);
    }
    return value;
  };

  /** The file at `path` inside root, or null (absent, a folder, or outside root). */
  const load = async (path: string): Promise<Loaded | null> => {
    const file = resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return null;
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { body: new Uint8Array(await readFile(file)), mtimeMs: info.mtimeMs };
    } catch {
      return null;
    }
  };

  /** `path` in `encoding`: the build's precompressed file when it has one, else compressed once here. */
  const encoded = async (path: string, file: Loaded, encoding: Encoding): Promise<Uint8Array> => {
    const precompressed = await load(`${path}.${encoding === 'br' ? 'br' : 'gz'}`);
    if (precompressed && precompressed.mtimeMs >= file.mtimeMs) return precompressed.body;
    const key = `${path}|${file.mtimeMs}|${encoding}`;
    let body = compressed.get(key);
    if (!body) {
      body = (
        encoding === 'br'
          ? brotli(file.body, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: file.body.length },
            })
          : gzipAsync(file.body, { level: 9 })
      ).then((b) => new Uint8Array(b));
      compressed.set(key, body);
    }
    return body;
  };

  const app = new Hono();
  // One header policy with the API (http/security-headers.ts): no framing, nosniff, referrer, HSTS on https, CSP.
  if (security) app.use(security.middleware);
  app.get('*', async (c) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      return c.text('Bad request', 400);
    }
    let file = path.endsWith('/') ? null : await load(path);
    if (!file) {
      if (path.startsWith('/assets/')) return c.text('Not found', 404);
      // `/` is the prerendered landing page; other routes get the app's page (a build without one: index.html).
      path = path === '/' ? '/index.html' : '/app.html';
      file = await load(path);
      if (!file && path === '/app.html') {
        path = '/index.html';
        file = await load(path);
      }
      if (!file) return c.text('The web app is not built (npm run web:build)', 404);
    }
    const extension = extname(path).toLowerCase();
    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      'cache-control': path.startsWith('/assets/') ? IMMUTABLE : ALWAYS_REVALIDATED.has(path) ? REVALIDATE : SHORT,
      'x-content-type-options': 'nosniff',
    };
    if (path === '/sw.js') headers['service-worker-allowed'] = '/';
    if (security && extension === '.html') {
      headers['content-security-policy'] = pagePolicy(path, file, (html) => security.pagePolicy(html));
    }
    let body = file.body;
    let encoding: Encoding | null = null;
    if (COMPRESSIBLE.has(extension) && file.body.length >= MIN_COMPRESS_BYTES) {
      headers.vary = 'Accept-Encoding';
      encoding = acceptedEncodings(c.req.header('accept-encoding'))[0] ?? null;
      if (encoding) {
        body = await encoded(path, file, encoding);
        headers['content-encoding'] = encoding;
      }
    }
    // One validator per representation: the file's version and the encoding sent.
    const etag = `"${createHash('sha1').update(`${path}|${file.mtimeMs}|${file.body.length}`).digest('base64url').slice(0, 20)}${encoding ? `-${encoding}` : ''}"`;
    headers.etag = etag;
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return c.body(null, 304, headers);
    }
    return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
  });
  return app;
}
