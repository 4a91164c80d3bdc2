import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { emitFix, type Fix, installFakeGps, parkRun } from './support/fake-gps.ts';
import {
  apiFromPage,
  mailedConfirmation,
  PASSWORD,
  phonePage,
  screenshot,
  signedInUser,
  uniqueEmail,
} from './support/journey.ts';

/** A Wednesday morning in New York: every run sits well inside one goal week. */
const WEDNESDAY = '2026-11-25T15:00:00.000Z';
const FIX_EVERY_SEC = 3;
/** About 0.45 km at 6:00/km, a fix every 3 s: a short run, but a real one (over a minute, a dense track). */
const TRACK: Fix[] = parkRun({ km: 0.45, paceSecPerKm: 360, everySec: FIX_EVERY_SEC });

/** "A newcomer's first hour, without a rough edge": the words a newcomer reads, true and in their unit. */
describe('journey: the first hour’s words', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack();
    stack.runtime.clock.set(WEDNESDAY);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** A signed-in runner on the page's clock (the server's), with a fake GPS and, when given, a goal and a unit. */
  async function runner(
    name: string,
    options: { unit?: 'km' | 'mi'; goal?: Record<string, unknown>; init?: () => void } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    stack.runtime.clock.set(WEDNESDAY);
    const { context, page } = await signedInUser(stack, name);
    await context.clock.install({ time: new Date(WEDNESDAY) });
    await installFakeGps(context, TRACK[0]!);
    if (options.init) await context.addInitScript(options.init);
    await page.goto(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name }).waitFor();
    if (options.unit) {
      const put = await apiFromPage(page, stack.apiUrl, 'PUT', '/me/preferences', { distance_unit: options.unit });
      expect(put.status).toBe(200);
    }
    if (options.goal) {
      expect((await apiFromPage(page, stack.apiUrl, 'POST', '/goals', options.goal)).status).toBe(201);
    }
    await page.reload();
    await page.getByRole('heading', { name }).waitFor();
    return { context, page };
  }

  /** Starts a run on /run and freezes the page's clock: time then moves only with the fixes. */
  async function startRun(page: Page) {
    await page.getByRole('link', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    await page.clock.pauseAt(new Date((await page.evaluate(() => Date.now())) + 1_000));
  }

  /** Runs the whole track, stops and saves it; answers the run summary dialog. */
  async function runTrackAndSave(page: Page) {
    await startRun(page);
    await emitFix(page, TRACK[0]!);
    for (const fix of TRACK.slice(1)) {
      await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      await emitFix(page, fix);
    }
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    stack.runtime.clock.set(new Date(await page.evaluate(() => Date.now())));
    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('dialog', { name: 'Stop tracking?' }).getByRole('button', { name: 'Stop & Save' }).click();
    const summary = page.getByRole('dialog', { name: 'Run saved!' });
    await summary.waitFor();
    await page.clock.resume();
    return summary;
  }

  it('1. every place says $5–$100 (hero and the Add Stakes card)', async () => {
    const { context, page } = await phonePage(stack.browser);
    await page.goto(stack.webUrl);
    await page.getByText('optionally stake $5–$100', { exact: false }).waitFor();
    expect(await page.getByText('Put $5–$100 on the line.', { exact: false }).isVisible()).toBe(true);
    expect(await page.getByText('$10-$100', { exact: false }).count()).toBe(0);
    await screenshot(page, 'first-hour-landing-5-100');
    await context.close();
  });

  it('2. a run on a free goal speaks of the goal, not a stake (run summary, run history, run detail)', async () => {
    const { context, page } = await runner('Fern Free', { goal: { type: 'distance', target_value: 5 } });
    const summary = await runTrackAndSave(page);
    const towardGoal = /^Verified Counted all 0\.\d\d km toward your goal$/;
    await summary.locator('.run-verdict', { hasText: towardGoal }).waitFor();
    expect(await summary.getByText('Verified', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('toward your stake', { exact: false }).count()).toBe(0);
    await screenshot(page, 'first-hour-free-goal-summary');

    await page.goto(`${stack.webUrl}/run-history`);
    const row = page.locator('.run-row').first();
    await row.locator('.run-verdict', { hasText: towardGoal }).waitFor();
    expect(await page.getByText('toward your stake', { exact: false }).count()).toBe(0);
    await screenshot(page, 'first-hour-free-goal-history');

    await row.locator('.run-link').click();
    await page.locator('.run-verdict', { hasText: towardGoal }).waitFor();
    expect(await page.getByText('toward your stake', { exact: false }).count()).toBe(0);
    await screenshot(page, 'first-hour-free-goal-detail');
    await context.close();
  });

  it('4. miles: banner, XP guide, /run, goal progress and speed all in miles, one precision, mph', async () => {
    // A 5 km goal: 3.11 mi.
    const { context, page } = await runner('Milo Miles', { unit: 'mi', goal: { type: 'distance', target_value: 5 } });
    await page.getByText('0.00 / 3.11 mi').waitFor();

    await page.getByRole('link', { name: 'Run', exact: true }).click();
    await page.getByText('earns about 16 XP per mile.', { exact: false }).waitFor();
    expect(await page.getByText('XP per km', { exact: false }).count()).toBe(0);

    // The tracking banner while running, on another page: miles only.
    await startRun(page);
    await emitFix(page, TRACK[0]!);
    for (const fix of TRACK.slice(1, 40)) {
      await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      await emitFix(page, fix);
    }
    await page.getByRole('link', { name: 'Home' }).click();
    const banner = page.locator('.tracking-banner');
    await page.clock.fastForward(1_000);
    await banner.getByText(/^0\.\d\d mi$/).waitFor();
    expect(await banner.getByText(/km/).count()).toBe(0);
    await screenshot(page, 'first-hour-miles-banner');
    await banner.click();
    for (const fix of TRACK.slice(40)) {
      await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      await emitFix(page, fix);
    }
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    stack.runtime.clock.set(new Date(await page.evaluate(() => Date.now())));
    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('dialog', { name: 'Stop tracking?' }).getByRole('button', { name: 'Stop & Save' }).click();
    const summary = page.getByRole('dialog', { name: 'Run saved!' });
    await summary
      .getByText(/^0\.\d\d mi$/)
      .first()
      .waitFor();
    await page.clock.resume();

    // The goal's progress with the run's own precision: "0.28 / 3.11 mi" beside "0.28 mi".
    await page.goto(`${stack.webUrl}/app`);
    const card = page.getByRole('region', { name: "This week's goal" });
    await card.getByText(/^0\.\d\d \/ 3\.11 mi$/).waitFor();
    await screenshot(page, 'first-hour-miles-progress', card);

    await page.goto(`${stack.webUrl}/xp-guide`);
    await page.getByText('Every mile you run').waitFor();
    expect(await page.getByText('about 16 XP').isVisible()).toBe(true);
    await screenshot(page, 'first-hour-miles-xp-guide');

    const goal = (await apiFromPage(page, stack.apiUrl, 'GET', '/goals/current')).json as { data: { id: string } };
    await page.goto(`${stack.webUrl}/goals/${goal.data.id}/stats`);
    const speed = page.locator('.stat', { hasText: 'Average speed' });
    await speed.getByText(/^\d+\.\d mph$/).waitFor();
    expect(await page.getByText('mi/h', { exact: false }).count()).toBe(0);
    await screenshot(page, 'first-hour-miles-mph');
    await context.close();
  });

  it('9. words: a true empty Run tab, a too-short stop said before it is confirmed, Share that never stays silent', async () => {
    // Neither Web Share nor the clipboard on this device.
    const noShare = () => {
      Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    };
    const { context, page } = await runner('Wendy Words', { init: noShare });
    await page.getByRole('link', { name: 'Run', exact: true }).click();
    await page.getByText('Tap Start Run above, or connect Strava to bring your runs in.').waitFor();
    expect(await page.getByText('on the Run tab', { exact: false }).count()).toBe(0);

    // A 5-second run: the confirmation says it will not be saved.
    await startRun(page);
    await emitFix(page, TRACK[0]!);
    await page.clock.fastForward(5_000);
    await emitFix(page, TRACK[1]!);
    await page.getByRole('button', { name: 'Stop Run' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop tracking?' });
    await stop
      .getByText(
        'This run is too short to be saved: a run needs at least 60 seconds and 2 GPS points. Stopping now discards it.',
      )
      .waitFor();
    expect(await stop.getByText('Your run will be saved.').count()).toBe(0);
    await screenshot(page, 'first-hour-too-short-stop');
    await stop.getByRole('button', { name: 'Stop & Discard' }).click();
    await page.clock.resume();
    await page.getByRole('button', { name: 'Start Run' }).waitFor();

    // A real run; its first-run badge's Share, with nothing to share or copy with, shows the text to copy.
    const summary = await runTrackAndSave(page);
    await summary.getByRole('button', { name: 'Done' }).click();
    // The first-run badge is celebrated on the dashboard.
    await page.getByRole('link', { name: 'Home' }).click();
    const badge = page.getByRole('dialog', { name: 'Badge Earned!' });
    await badge.getByRole('button', { name: 'Share' }).click();
    await badge.getByText('Sharing is not available on this device. Copy this to share it:').waitFor();
    expect(await badge.getByRole('textbox', { name: 'Text to share' }).inputValue()).toMatch(/on StrideStake!$/);
    await screenshot(page, 'first-hour-share-fallback');
    await context.close();
  });

  it('11. signing in asks nothing of the API before the session exists: no 401 in the console or the network', async () => {
    // Real time: this page's clock is the browser's own, which judges the session's expiry.
    stack.runtime.clock.set(new Date());
    const { context, page } = await phonePage(stack.browser);
    const unauthorized: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401) unauthorized.push(`${r.request().method()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error' && m.text().includes('401')) unauthorized.push(`console: ${m.text()}`);
    });
    const keyAsked: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/notifications/web-push-key')) keyAsked.push(r.headers().authorization);
    });

    // A newcomer: signs up, and the mailed link signs them in.
    const email = uniqueEmail('Sian Signin');
    await page.goto(`${stack.webUrl}/signup`);
    await page.getByLabel('Display name').fill('Sian Signin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.goto((await mailedConfirmation(stack, email)).link);
    await page.getByRole('heading', { name: 'Sian Signin' }).waitFor();
    await page.waitForLoadState('networkidle');

    // Signs out, and in again with the password.
    await page.goto(`${stack.webUrl}/profile`);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${stack.webUrl}/`);
    await page.goto(`${stack.webUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Sian Signin' }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'first-hour-signed-in');
    expect(unauthorized).toEqual([]);
    // The key is asked for with the session, never before it.
    expect(keyAsked.length).toBeGreaterThan(0);
    for (const auth of keyAsked) expect(auth).toMatch(/^Bearer /);
    await context.close();
  });
});
