import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncodings, webAppServer } from '../../app-server/web-static.ts';

/** The static server `npm start` runs on WEB_PORT (app-server/web-static.ts), on a small fake build. */
describe('the web app server: compression and cache headers', () => {
  let dist: string;
  let app: ReturnType<typeof webAppServer>;
  const script = `export const answer = ${JSON.stringify('forty-two '.repeat(400))};\n`;
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'stridestake-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), `<!doctype html><title>StrideStake</title>${'<p>landing</p>'.repeat(200)}`);
    writeFileSync(join(dist, 'app.html'), '<!doctype html><title>StrideStake</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets/app-Ab12Cd34.js'), script);
    writeFileSync(join(dist, 'assets/tiny-Ef56.js'), 'export {};\n');
    writeFileSync(join(dist, 'sw.js'), `self.addEventListener('fetch', () => {});${' '.repeat(2000)}`);
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"StrideStake"}');
    writeFileSync(join(dist, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    // A precompressed copy the build wrote: served as is (here marked, to tell it from one compressed on the fly).
    const marked = `${script}// precompressed\n`;
    writeFileSync(join(dist, 'assets/app-Ab12Cd34.js.gz'), gzipSync(marked));
    app = webAppServer(dist);
  });

  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('sends hashed assets brotli-compressed when accepted, immutable for a year', async () => {
    const response = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(body).toString()).toBe(script);
  });

  it('prefers the build’s precompressed gzip file for a client without brotli', async () => {
    const response = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toContain('// precompressed');
  });

  it('sends the bytes as they are to a client that accepts no compression, and leaves tiny files alone', async () => {
    const plain = await get('/assets/app-Ab12Cd34.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
    const refused = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers.get('content-encoding')).toBeNull();
    const tiny = await get('/assets/tiny-Ef56.js', { 'accept-encoding': 'br' });
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(tiny.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates the page, the service worker and the manifest on every load (no-cache, ETag, 304)', async () => {
    for (const path of ['/', '/index.html', '/app', '/sw.js', '/manifest.webmanifest']) {
      const response = await get(path, { 'accept-encoding': 'br' });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      const etag = response.headers.get('etag');
      expect(etag, path).toMatch(/^".+"$/);
      const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': etag! });
      expect(again.status, path).toBe(304);
    }
    expect((await get('/', { 'accept-encoding': 'gzip' })).headers.get('content-encoding')).toBe('gzip');
  });

  it('answers the landing page at /, the app page for client routes, a 404 for a missing asset', async () => {
    expect(await (await get('/')).text()).toContain('<p>landing</p>');
    const route = await get('/goals/abc/stats');
    expect(route.status).toBe(200);
    expect(route.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(route.headers.get('cache-control')).toBe('no-cache');
    const page = await route.text();
    expect(page).toContain('<div id="root"></div>');
    expect(page).not.toContain('<p>landing</p>');
    const stale = await get('/assets/app-OldHash1.js');
    expect(stale.status).toBe(404);
  });

  it('keeps other public files briefly and never leaves the build folder', async () => {
    const icon = await get('/icon-192.png', { 'accept-encoding': 'br' });
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('content-encoding')).toBeNull();
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
    const outside = await get('/%2e%2e/%2e%2e/etc/passwd');
    expect(await outside.text()).toContain('<title>StrideStake</title>');
  });

  it('reads Accept-Encoding with weights', () => {
    expect(acceptedEncodings('gzip, deflate, br')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings('gzip;q=0.8, br;q=0')).toEqual(['gzip']);
    expect(acceptedEncodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings(undefined)).toEqual([]);
  });
});
