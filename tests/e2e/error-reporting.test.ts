import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS } from '../bench/web/budgets.ts';
import { appFirstLoad } from '../bench/web/pages.ts';
import { SentryStandIn } from '../support/sentry-stand-in.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { signedInUser } from './support/journey.ts';
import { buildWebApp, webAppServerFor } from './support/web-build.ts';

/** What must never reach the error service (§9, docs/SECURITY.md). */
const EMAIL = 'dee.strider+runs@example.com';
const ACCESS_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJydW5uZXItNDIifQ.c2lnbmF0dXJlLW9mLXRoZS1hY2Nlc3MtdG9rZW4';
const REFRESH_TOKEN = 'k9Qm2ZrT7vXw4Lp8Nc3Hs6Jd1Fg5Yb0Ue';
const LAT = '40.712776';
const LON = '-74.005974';
const SECRETS = [EMAIL, ACCESS_TOKEN, REFRESH_TOKEN, LAT, LON, encodeURIComponent(EMAIL)];

type SentryCarrier = Record<string, { defaultCurrentScope?: { getClient(): { getOptions(): Record<string, unknown> } } }> & {
  version: string;
};

/** The options the running SDK was started with, read from the page (undefined: no SDK started). */
const sdkOptions = (page: Page) =>
  page.evaluate(() => {
    const carrier = (globalThis as unknown as { __SENTRY__?: SentryCarrier }).__SENTRY__;
    const options = carrier?.[carrier.version]?.defaultCurrentScope?.getClient()?.getOptions();
    if (!options) return undefined;
    const { tracesSampleRate, replaysSessionSampleRate, replaysOnErrorSampleRate, sendDefaultPii, environment } =
      options;
    return { tracesSampleRate, replaysSessionSampleRate, replaysOnErrorSampleRate, sendDefaultPii, environment };
  });

/**
 * The app's own error, carrying everything personal a real one might: the runner's e-mail, their session token, a
 * GPS fix; after a console line with fixes and a request with a token in its address (both become breadcrumbs).
 */
async function failWithPersonalData(page: Page, apiUrl: string): Promise<void> {
  await page.evaluate(
    async ({ email, access, refresh, lat, lon, api }) => {
      console.log('GPS fixes', JSON.stringify([{ latitude: Number(lat), longitude: Number(lon), accuracy: 5 }]));
      await fetch(`${api}/health?access_token=${refresh}&email=${encodeURIComponent(email)}`).catch(() => {});
      setTimeout(() => {
        throw new Error(`Run save failed for ${email}: Bearer ${access} at ${lat},${lon}`);
      }, 0);
    },
    { email: EMAIL, access: ACCESS_TOKEN, refresh: REFRESH_TOKEN, lat: LAT, lon: LON, api: apiUrl },
  );
}

describe('error reporting in the browser, against a local stand-in for Sentry', () => {
  const sentry = new SentryStandIn();
  const builds: string[] = [];
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let runnerEmail = '';
  const cspViolations: string[] = [];

  beforeAll(async () => {
    await sentry.start();
    const dir = mkdtempSync(join(tmpdir(), 'stridestake-web-sentry-'));
    builds.push(dir);
    await buildWebApp(dir, { sentryDsn: sentry.dsn() });
    stack = await startE2eStack({ webBuildDir: dir, config: { VITE_SENTRY_DSN: sentry.dsn() } });
    ({ context, page, email: runnerEmail } = await signedInUser(stack, 'Dee Strider'));
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    await sentry.stop();
    for (const dir of builds) rmSync(dir, { recursive: true, force: true });
  });

  /** The dashboard, once the SDK has come in (a few seconds after the page's load). */
  const openAppWithSdk = async () => {
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const sdkChunk = page.waitForResponse((r) => /sentry-client/.test(r.url()));
    await page.goto(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name: 'Dee Strider' }).waitFor();
    await sdkChunk;
    await expect.poll(() => sdkOptions(page), { timeout: 15_000 }).toBeDefined();
  };

  it('a production build with VITE_SENTRY_DSN starts the SDK once idle, sampled as §9 says', async () => {
    await openAppWithSdk();
    await expect.poll(() => sdkOptions(page), { timeout: 15_000 }).toEqual({
      tracesSampleRate: 0.1,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
      sendDefaultPii: false,
      environment: 'production',
    });
  });

  it('the SDK is not part of /app’s first load: the first-load budget holds with a DSN', async () => {
    const load = await appFirstLoad(stack);
    expect(load.scripts.some((script) => /sentry-client/.test(script.url))).toBe(false);
    expect(load.gzipBytes).toBeLessThanOrEqual(BUDGETS.appGzipBytes);
  });

  it('an error with an e-mail, tokens and GPS fixes arrives scrubbed, and its replay too (100% on error)', async () => {
    await openAppWithSdk();
    await failWithPersonalData(page, stack.apiUrl);
    const event = await sentry.waitFor((e) => e.itemTypes.includes('event') && e.body.includes('Run save failed'));
    expect(event.path).toMatch(/^\/api\/1\/envelope\//);
    // What it says stays readable: the message with its secrets replaced.
    expect(event.body).toContain('Run save failed for [email]: Bearer [redacted] at [coordinates]');
    // The breadcrumbs came along, scrubbed: the console line with fixes, the request with tokens in its address.
    expect(event.body).toContain('GPS fixes');
    expect(event.body).toContain('access_token=[redacted]');

    // Sampled 100% on error: the session's replay follows the error.
    await sentry.waitFor((e) => e.itemTypes.includes('replay_event'));
    await sentry.waitFor((e) => e.itemTypes.includes('replay_recording'));

    // Nothing personal in anything that arrived: errors, transactions, sessions, replays and their recordings.
    const everything = sentry.envelopes.map((e) => e.body).join('\n');
    for (const secret of [...SECRETS, runnerEmail]) expect(everything).not.toContain(secret);
    // All of it under the production CSP, which allowed the DSN's origin and nothing the SDK does was refused.
    expect(cspViolations).toEqual([]);
  });
});

describe('a development build with VITE_SENTRY_DSN sends nothing', () => {
  const sentry = new SentryStandIn();
  let dir = '';
  let devWebUrl = '';
  let stack: E2eStack;
  let close = async () => {};

  beforeAll(async () => {
    await sentry.start();
    dir = mkdtempSync(join(tmpdir(), 'stridestake-web-dev-'));
    await buildWebApp(dir, { mode: 'development', sentryDsn: sentry.dsn() });
    stack = await startE2eStack();
    // The development build on its own origin, talking to the same API (signed out: the app still starts).
    const server = serve({ fetch: webAppServerFor(dir, stack.apiUrl).fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((done) => server.once('listening', () => done()));
    devWebUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise<void>((done) => server.close(() => done()));
  }, 300_000);

  afterAll(async () => {
    await close();
    await stack?.close();
    await sentry.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads no SDK and posts no envelope, even for an error with personal data', async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${devWebUrl}/app`);
    // The app started (signed out, it shows the landing page) and went idle, when a production build loads the SDK.
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    await page.evaluate(() => new Promise((done) => setTimeout(done, 1_500)));
    await failWithPersonalData(page, stack.apiUrl);
    await page.evaluate(() => new Promise((done) => setTimeout(done, 3_000)));
    expect(requested.filter((url) => /sentry-client|127\.0\.0\.1:\d+\/api\/\d+\/envelope/.test(url))).toEqual([]);
    expect(await sdkOptions(page)).toBeUndefined();
    expect(sentry.envelopes).toEqual([]);
    await context.close();
  });
});
