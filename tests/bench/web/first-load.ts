import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page, Response } from 'playwright-core';

/** One script the page fetched on its first load. */
export interface ScriptLoad {
  readonly url: string;
  /** The bytes the browser ran (decoded). */
  readonly rawBytes: number;
  /** The same bytes gzipped at level 9, as the build precompresses them: the unit of the budgets. */
  readonly gzipBytes: number;
  /** What crossed the wire for it (encoded body), as the browser reports. */
  readonly transferredBytes: number;
  /** Content-Encoding of the answer ('' when none). */
  readonly encoding: string;
}

/** What a cold first load of one URL cost. */
export interface FirstLoad {
  readonly url: string;
  readonly scripts: readonly ScriptLoad[];
  readonly rawBytes: number;
  readonly gzipBytes: number;
  readonly transferredBytes: number;
  /** Largest contentful paint (ms after navigation start), when asked for. */
  readonly lcpMs: number | null;
}

export interface FirstLoadOptions {
  /** Resolves once the page shows what it is for (its heading, its data). */
  readonly ready: (page: Page) => Promise<void>;
  /** CPU slowdown through the DevTools protocol (Emulation.setCPUThrottlingRate); 1 = none. */
  readonly cpuThrottling?: number;
  /** How long the page must ask for no new script before the load counts as over (ms). */
  readonly quietMs?: number;
}

/** In the page (no DOM types on this side): the newest largest-contentful-paint entry's time, or null. */
const LAST_LCP = `new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    resolve(entries.length > 0 ? entries[entries.length - 1].startTime : null);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => resolve(null), 2000);
})`;

/** The JS a page ran: requests of type script answered by the network (not a service worker). */
function isPageScript(response: Response): boolean {
  const request = response.request();
  return request.resourceType() === 'script' && !response.fromServiceWorker() && request.serviceWorker() === null;
}

/**
 * Loads `url` in a new page of `context` (give it a fresh context: a cold cache, no service worker yet) and sums the
 * JavaScript it fetched: the entry, its modulepreloads and every lazy chunk requested before the page has shown what
 * it is for and then asked for no new script for `quietMs`. Optionally measures the largest contentful paint with
 * the CPU slowed down.
 */
export async function measureFirstLoad(
  context: BrowserContext,
  url: string,
  options: FirstLoadOptions,
): Promise<FirstLoad> {
  const page = await context.newPage();
  const pending = new Set<Promise<ScriptLoad | null>>();
  const scripts: ScriptLoad[] = [];
  let lastActivity = Date.now();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') lastActivity = Date.now();
  });
  page.on('response', (response) => {
    if (!isPageScript(response)) return;
    lastActivity = Date.now();
    const load = (async () => {
      const body = await response.body();
      const sizes = await response.request().sizes();
      const headers = await response.allHeaders();
      return {
        url: response.url(),
        rawBytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        transferredBytes: sizes.responseBodySize,
        encoding: headers['content-encoding'] ?? '',
      };
    })().catch(() => null);
    pending.add(load);
  });
  const cdp = options.cpuThrottling && options.cpuThrottling > 1 ? await context.newCDPSession(page) : null;
  await cdp?.send('Emulation.setCPUThrottlingRate', { rate: options.cpuThrottling! });
  await page.goto(url, { waitUntil: 'load' });
  await options.ready(page);
  const quietMs = options.quietMs ?? 1_000;
  while (Date.now() - lastActivity < quietMs) await page.waitForTimeout(100);
  for (const load of await Promise.all(pending)) if (load) scripts.push(load);
  // The last LCP candidate reported so far: the page has shown what it is for and gone quiet.
  const lcpMs = cdp ? ((await page.evaluate(LAST_LCP)) as number | null) : null;
  await cdp?.detach();
  await page.close();
  const sum = (pick: (s: ScriptLoad) => number) => scripts.reduce((total, s) => total + pick(s), 0);
  return {
    url,
    scripts,
    rawBytes: sum((s) => s.rawBytes),
    gzipBytes: sum((s) => s.gzipBytes),
    transferredBytes: sum((s) => s.transferredBytes),
    lcpMs: lcpMs === null ? null : Math.round(lcpMs),
  };
}
