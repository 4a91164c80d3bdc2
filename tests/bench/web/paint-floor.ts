import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Browser } from 'playwright-core';
import { PHONE_VISITOR } from './pages.ts';
import { measureFirstLoad } from './first-load.ts';

/** One heading and nothing else: the least a page can paint. */
const FLOOR_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title></head>
<body><h1 style="font: 700 2.2rem/1.2 system-ui, sans-serif">Run your weekly goal. Put money on it.</h1></body></html>`;

/**
 * The largest contentful paint of a one-heading HTML page with no script or stylesheet, at the same viewport and
 * CPU slowdown: what this machine, at this moment, cannot go under. Printed beside the app's figures, because a
 * shared 2-core machine under load paints even this page late, and a paint figure means little without it.
 */
export async function paintFloorMs(browser: Browser, cpuThrottling: number, runs: number): Promise<number | null> {
  const server = serve({
    fetch: () => new Response(FLOOR_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise<void>((done) => server.once('listening', () => done()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const paints: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext(PHONE_VISITOR);
      try {
        const load = await measureFirstLoad(context, url, {
          cpuThrottling,
          quietMs: 200,
          ready: (page) => page.getByRole('heading').waitFor(),
        });
        if (load.lcpMs !== null) paints.push(load.lcpMs);
      } finally {
        await context.close();
      }
    }
    paints.sort((a, b) => a - b);
    return paints.length > 0 ? paints[Math.floor(paints.length / 2)]! : null;
  } finally {
    await new Promise<void>((done) => server.close(() => done()));
  }
}
