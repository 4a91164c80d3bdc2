import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { emitFix, type Fix, installFakeGps, parkRun } from './support/fake-gps.ts';
import { screenshot, signedInUser } from './support/journey.ts';

const MORNING = '2026-11-25T15:00:00.000Z';
const FIX_EVERY_SEC = 3;
const TRACK: Fix[] = parkRun({ km: 0.5, paceSecPerKm: 330, everySec: FIX_EVERY_SEC });

/** What the stubbed Screen Wake Lock saw: requests made, locks the page released, locks held now. */
interface WakeLockLog {
  readonly requests: number;
  readonly releasedByPage: number;
  readonly held: number;
}

/**
 * A Screen Wake Lock the test can watch (headless Chromium has none that means anything), and a page visibility the
 * test drives: hiding the page releases every lock, as a browser does when the screen goes off.
 */
async function installWakeLockAndVisibility(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    type Sentinel = { released: boolean; type: 'screen'; release(): Promise<void>; onrelease: null };
    const held = new Set<Sentinel>();
    const log = { requests: 0, releasedByPage: 0 };
    const sentinel = (): Sentinel => {
      const s: Sentinel = {
        released: false,
        type: 'screen',
        onrelease: null,
        release() {
          if (!s.released) log.releasedByPage += 1;
          s.released = true;
          held.delete(s);
          return Promise.resolve();
        },
      };
      return s;
    };
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: {
        request(type: string) {
          log.requests += 1;
          if (type !== 'screen') return Promise.reject(new TypeError('screen only'));
          const s = sentinel();
          held.add(s);
          return Promise.resolve(s);
        },
      },
    });
    let visibility: 'visible' | 'hidden' = 'visible';
    const doc = (globalThis as unknown as { document: object }).document;
    Object.defineProperty(doc, 'visibilityState', { configurable: true, get: () => visibility });
    Object.defineProperty(doc, 'hidden', { configurable: true, get: () => visibility === 'hidden' });
    Object.assign(globalThis, {
      __screen: {
        set(next: 'visible' | 'hidden') {
          visibility = next;
          // The browser releases screen locks of a hidden page itself.
          if (next === 'hidden')
            for (const s of [...held]) {
              s.released = true;
              held.delete(s);
            }
          (doc as { dispatchEvent(e: Event): boolean }).dispatchEvent(new Event('visibilitychange'));
        },
        log: () => ({ ...log, held: held.size }),
      },
    });
  });
}

type ScreenWindow = { __screen: { set(v: 'visible' | 'hidden'): void; log(): WakeLockLog } };
const setScreen = (page: Page, v: 'visible' | 'hidden') =>
  page.evaluate((value) => (globalThis as unknown as ScreenWindow).__screen.set(value), v);
const wakeLockLog = (page: Page) => page.evaluate(() => (globalThis as unknown as ScreenWindow).__screen.log());

describe('the web tracker is honest about the screen', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack({ now: MORNING });
    ({ context, page } = await signedInUser(stack, 'Wanda Walker'));
    await context.clock.install({ time: new Date(MORNING) });
    await installFakeGps(context, TRACK[0]!);
    await installWakeLockAndVisibility(context);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  it('before a first run on the web, says the screen must stay on and points to the app', async () => {
    await page.goto(`${stack.webUrl}/run`);
    const tracker = page.getByRole('region', { name: 'GPS tracker' });
    await tracker.getByText('Before your first run: in a browser, GPS works only while this page is open').waitFor();
    expect(await tracker.getByText('The StrideStake app for Android and iPhone tracks with the screen off.').count()).toBe(
      1,
    );
    expect((await wakeLockLog(page)).requests).toBe(0);
    await screenshot(page, 'wake-lock-first-run-notice');
  });

  it('keeps the screen awake while tracking; after 6 minutes hidden without fixes it says what was lost', async () => {
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    await page.clock.pauseAt(new Date((await page.evaluate(() => Date.now())) + 1_000));
    await expect.poll(() => wakeLockLog(page)).toEqual({ requests: 1, releasedByPage: 0, held: 1 });
    // The first-run notice is for before the run.
    expect(await page.getByText('Before your first run').count()).toBe(0);

    for (const fix of TRACK.slice(0, 10)) {
      await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      await emitFix(page, fix);
    }
    await page.getByText('10 GPS points', { exact: true }).waitFor();

    // The screen goes off: the browser drops the lock and the fixes stop for six minutes.
    await setScreen(page, 'hidden');
    expect((await wakeLockLog(page)).held).toBe(0);
    await page.clock.fastForward(6 * 60_000);
    await setScreen(page, 'visible');
    const notice = page.getByRole('status').filter({ hasText: 'GPS paused for 6 min while the screen was off' });
    await notice.waitFor();
    // Shown again: the lock is asked for again.
    await expect.poll(() => wakeLockLog(page)).toEqual({ requests: 2, releasedByPage: 0, held: 1 });
    await screenshot(page, 'wake-lock-gps-paused-notice');

    // Fixes come again; a short look away (fixes kept coming) tells nothing new and clears the notice.
    for (const fix of TRACK.slice(10, 20)) {
      await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      await emitFix(page, fix);
    }
    await setScreen(page, 'hidden');
    for (const fix of TRACK.slice(20, 25)) {
      await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      await emitFix(page, fix);
    }
    await setScreen(page, 'visible');
    await notice.waitFor({ state: 'detached' });
    expect(await page.getByText(/GPS paused for/).count()).toBe(0);
  });

  it('releases the lock when the run stops', async () => {
    for (const fix of TRACK.slice(25)) {
      await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      await emitFix(page, fix);
    }
    stack.runtime.clock.set(new Date(await page.evaluate(() => Date.now())));
    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('dialog', { name: 'Stop tracking?' }).getByRole('button', { name: 'Stop & Save' }).click();
    await expect.poll(() => wakeLockLog(page)).toEqual({ requests: 3, releasedByPage: 1, held: 0 });
  });
});
