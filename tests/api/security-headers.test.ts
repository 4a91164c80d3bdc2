import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../app-server/config.ts';
import { nginxHeaderLines, webSecurityHeaders } from '../../app-server/http/security-headers.ts';
import { webAppServer } from '../../app-server/web-static.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/**
 * The one header policy (app-server/http/security-headers.ts) on the API's answers (JSON, errors) and on the static
 * server's pages and files: no framing, nosniff, a referrer policy, HSTS only behind https, and a CSP that names the
 * page's inline scripts by hash and Stripe's hosts only when Stripe is configured.
 */
describe.each(databaseTargets())('API security headers on %s', (target) => {
  let http: TestRuntime;
  let https: TestRuntime;

  beforeAll(async () => {
    http = await startTestRuntime(target, { workers: false });
    https = await startTestRuntime(target, {
      workers: false,
      config: { PUBLIC_URL: 'https://api.stridestake.example', APP_URL: 'https://stridestake.example' },
    });
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await https?.close();
  });

  const expectBaseline = (headers: Headers) => {
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  };

  it('sends them on a JSON answer, without HSTS over http', async () => {
    const res = await http.request('GET', '/api/payment/config');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expectBaseline(res.headers);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends them on error answers (401, 404, 400)', async () => {
    const unauthorized = await http.request('GET', '/goals/current');
    expect(unauthorized.status).toBe(401);
    expectBaseline(unauthorized.headers);
    const missing = await http.request('GET', '/no-such-route');
    expect(missing.status).toBe(404);
    expectBaseline(missing.headers);
    const bad = await http.request('POST', '/api/payment/webhook', { body: 'not json' });
    expect(bad.status).toBe(400);
    expectBaseline(bad.headers);
  });

  it('adds HSTS when the public address is https', async () => {
    const res = await https.request('GET', '/api/payment/config');
    expectBaseline(res.headers);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const missing = await https.request('GET', '/no-such-route');
    expect(missing.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('web static server security headers', () => {
  const dist = mkdtempSync(join(tmpdir(), 'stridestake-headers-'));
  const inline = 'window.firstRequests = fetch("/x");';
  const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;

  beforeAll(() => {
    writeFileSync(join(dist, 'index.html'), '<!doctype html><style>body{color:red}</style><div id="root"></div>');
    writeFileSync(
      join(dist, 'app.html'),
      `<!doctype html><script>${inline}</script><script type="module" src="/assets/a.js"></script>`,
    );
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'a.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const base = { NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3001', APP_URL: 'http://localhost:5173' };
  const serve = (env: Record<string, string>) =>
    webAppServer(dist, webSecurityHeaders(loadConfig({ ...base, ...env })));
  const csp = (res: Response) => res.headers.get('content-security-policy') ?? '';

  it('serves pages with a CSP naming their inline scripts, the API origin, and no Stripe by default', async () => {
    const app = serve({});
    const page = await app.request('/goals');
    expect(page.status).toBe(200);
    const policy = csp(page);
    expect(policy).toContain(`script-src 'self' ${hash}`);
    expect(policy).toContain("connect-src 'self' http://localhost:3001");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
    expect(policy).toContain("img-src 'self' data: blob:");
    expect(policy).not.toContain('stripe');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(page.headers.get('strict-transport-security')).toBeNull();
    // The landing page has no inline script: no hash in its policy.
    expect(csp(await app.request('/'))).toMatch(/script-src 'self'; /);
    // Files carry the policy and the other headers too.
    const asset = await app.request('/assets/a.js');
    expect(asset.headers.get('x-frame-options')).toBe('DENY');
    expect(csp(asset)).toContain("frame-ancestors 'none'");
    // A revalidated page (304) keeps them.
    const again = await app.request('/goals', { headers: { 'if-none-match': page.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-frame-options')).toBe('DENY');
  });

  it("allows Stripe's hosts only when Stripe is configured", async () => {
    const app = serve({ STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PUBLISHABLE_KEY: 'pk_test_123' });
    const policy = csp(await app.request('/app'));
    expect(policy).toContain(`script-src 'self' ${hash} https://js.stripe.com https://*.js.stripe.com`);
    expect(policy).toContain(
      'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com https://m.stripe.network',
    );
    expect(policy).toContain(
      "connect-src 'self' http://localhost:3001 https://api.stripe.com https://m.stripe.network",
    );
  });

  it("allows the web build's Sentry DSN origin for connect-src only, and only when VITE_SENTRY_DSN is set", async () => {
    expect(csp(await serve({}).request('/app'))).not.toContain('sentry');
    const app = serve({ VITE_SENTRY_DSN: 'https://public@o4.ingest.sentry.io/4506' });
    const policy = csp(await app.request('/app'));
    expect(policy).toContain("connect-src 'self' http://localhost:3001 https://o4.ingest.sentry.io;");
    // Nowhere else: no script, frame or worker from it (the SDK is one of the build's own files).
    expect(policy.match(/sentry/g)).toHaveLength(1);
  });

  it('adds HSTS (and upgrades requests) only when the web address is https', async () => {
    const app = serve({ APP_URL: 'https://stridestake.example', PUBLIC_URL: 'https://api.stridestake.example' });
    const page = await app.request('/');
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(csp(page)).toContain('upgrade-insecure-requests');
    expect(csp(page)).toContain("connect-src 'self' https://api.stridestake.example");
  });
});

describe('nginx security headers (deploy/nginx.conf)', () => {
  it('are the same policy, with every page’s inline-script hash, and every web location includes them', () => {
    const lines = nginxHeaderLines(
      {
        APP_URL: 'https://stridestake.example',
        PUBLIC_URL: 'https://api.stridestake.example',
        STRIPE_SECRET_KEY: undefined,
      },
      ['<script>a()</script>', '<p>no script</p>', '<script src="/x.js"></script>'],
    );
    const hash = createHash('sha256').update('a()').digest('base64');
    expect(lines[0]).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(lines[0]).toContain("frame-ancestors 'none'");
    expect(lines[0]).toContain("connect-src 'self' https://api.stridestake.example");
    expect(lines).toContain('add_header X-Frame-Options "DENY" always;');
    expect(lines).toContain('add_header X-Content-Type-Options "nosniff" always;');
    expect(lines).toContain('add_header Referrer-Policy "strict-origin-when-cross-origin" always;');
    expect(lines).toContain('add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;');
    const conf = readFileSync(join(import.meta.dirname, '../../deploy/nginx.conf'), 'utf8');
    const web = conf.slice(conf.indexOf('listen 5173'));
    // The files' locations; /api/ passes the API's answers on with the API's own headers (web-with-api.ts).
    const locations = (web.match(/^\s*location /gm)?.length ?? 0) - (web.match(/^\s*location \/api\/ /gm)?.length ?? 0);
    expect(web).toMatch(/location \/api\/ \{\s*proxy_pass http:\/\/stridestake_api\/;/);
    expect(locations).toBeGreaterThan(0);
    expect(web.match(/include \/usr\/share\/nginx\/html\/\.security-headers\.conf;/g)?.length).toBe(locations);
  });
});
