import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient } from '../api/auth-helpers.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { emitFix, type Fix, installFakeGps, parkRun } from './support/fake-gps.ts';
import { PASSWORD, screenshot, signedInUser } from './support/journey.ts';

const FIX_EVERY_SEC = 3;
/** 1.05 km around a park at 5:30/km, a fix every 3 s; the network goes at 90% of it. */
const TRACK: Fix[] = parkRun({ km: 1.05, paceSecPerKm: 330, everySec: FIX_EVERY_SEC });
const OFFLINE_FROM = Math.floor(TRACK.length * 0.9);

/** In the page: the runs kept in IndexedDB (features/runs/offline/run-queue.ts). */
const KEPT_RUNS = `new Promise((resolve, reject) => {
  const open = indexedDB.open('stridestake-offline');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const all = open.result.transaction('pending-runs').objectStore('pending-runs').getAll();
    all.onsuccess = () => resolve(all.result);
    all.onerror = () => reject(all.error);
  };
})`;

interface KeptRun {
  readonly idempotencyKey: string;
  readonly request: { readonly path: string; readonly body: unknown };
}

describe('journey: no network at the end of a run in a park, and no run lost', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let email = '';
  let kept: KeptRun;

  /** The runner's API token (password grant), for checks from the test's side. */
  const token = async () =>
    (
      await authClient(stack.runtime)('POST', '/auth/v1/token?grant_type=password', {
        body: { email, password: PASSWORD },
      })
    ).body.access_token as string;
  const runsOnServer = async () =>
    (await stack.runtime.request('GET', '/runs', { token: await token() })).body.data as { id: string }[];
  const currentGoal = async () =>
    (await stack.runtime.request('GET', '/goals/current', { token: await token() })).body.data as {
      progress: number;
      percentage: number;
    };

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ context, page, email } = await signedInUser(stack, 'Olive Offline'));
    // The page's clock and the server's start together; the run's minutes pass on both in moments.
    await context.clock.install({ time: stack.runtime.clock.now() });
    await installFakeGps(context, TRACK[0]!);
    const goal = await stack.runtime.request('POST', '/goals', {
      token: await token(),
      body: { type: 'distance', target_value: 5 },
    });
    expect(goal.status).toBe(201);
    await page.goto(`${stack.webUrl}/run`);
    await page.getByRole('button', { name: 'Start Run' }).waitFor();
    // The app's service worker is in control before the park: it is what opens the app with no network.
    expect(await page.evaluate('navigator.serviceWorker.ready.then((r) => r.active.scriptURL)')).toBe(
      `${stack.webUrl}/sw.js`,
    );
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('records a GPS run, loses the network, stops: the run is kept on the phone, "Waiting to sync"', async () => {
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    // While tracking, the page's time moves only with the fixes, as on the server.
    await page.clock.pauseAt(new Date((await page.evaluate(() => Date.now())) + 1_000));
    stack.runtime.clock.set(new Date(await page.evaluate(() => Date.now())));
    for (const [i, fix] of TRACK.entries()) {
      if (i === OFFLINE_FROM) await context.setOffline(true);
      if (i > 0) {
        stack.runtime.clock.advance(FIX_EVERY_SEC * 1000);
        await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      }
      await emitFix(page, fix);
      // Real time for a live upload (every 15 s of the run) to land.
      if (i % 5 === 0) await page.waitForTimeout(50);
    }
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    await page.clock.resume();

    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('dialog', { name: 'Stop tracking?' }).getByRole('button', { name: 'Stop & Save' }).click();
    await page.getByText('Waiting to sync: no connection, so your run is kept on this phone').waitFor();
    const onThisPhone = page.getByRole('region', { name: 'Runs on this phone' });
    await onThisPhone.getByText('Waiting to sync', { exact: true }).waitFor();
    await screenshot(page, 'offline-run-waiting-to-sync');
    // The tracker is free again, and the server has no run yet.
    await page.getByRole('button', { name: 'Start Run' }).waitFor();
    expect(await runsOnServer()).toEqual([]);
    const queue = (await page.evaluate(KEPT_RUNS)) as KeptRun[];
    expect(queue).toHaveLength(1);
    kept = queue[0]!;
    // A session was open (the fixes went up live until the park): the queued request is its finish.
    expect(kept.request.path).toBe('/runs/gps/finish');
  });

  it('reloads with no network: the service worker opens the app, the run is still waiting', async () => {
    const response = await page.reload();
    expect(response?.fromServiceWorker()).toBe(true);
    await page.getByRole('button', { name: 'Start Run' }).waitFor();
    await page
      .getByRole('region', { name: 'Runs on this phone' })
      .getByText('Waiting to sync', { exact: true })
      .waitFor();
    expect(await page.evaluate('navigator.onLine')).toBe(false);
    await screenshot(page, 'offline-run-after-reload-offline');
  });

  it('back online: the run is sent by itself, saved once, and counted once toward the goal', async () => {
    await context.setOffline(false);
    await page.getByRole('alert').filter({ hasText: 'Run synced' }).waitFor();
    await page.getByRole('region', { name: 'Runs on this phone' }).waitFor({ state: 'detached' });
    expect((await page.evaluate(KEPT_RUNS)) as KeptRun[]).toEqual([]);

    const runs = await runsOnServer();
    expect(runs).toHaveLength(1);
    const goal = await currentGoal();
    expect(goal.progress).toBeGreaterThan(1);
    expect(goal.progress).toBeLessThan(1.2);

    // The same request again with its key (a tab that had it queued too, an answer lost on the way): the same
    // run, nothing new, nothing counted twice.
    const again = await stack.runtime.request('POST', kept.request.path, {
      token: await token(),
      body: kept.request.body,
      headers: { 'idempotency-key': kept.idempotencyKey },
    });
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(runs[0]!.id);
    expect(await runsOnServer()).toHaveLength(1);
    expect((await currentGoal()).progress).toBe(goal.progress);

    // What the runner sees: one run in the history, and the goal counting it once.
    await page.goto(`${stack.webUrl}/run-history`);
    await page.locator('.run-row').first().waitFor();
    expect(await page.locator('.run-row').count()).toBe(1);
    await screenshot(page, 'offline-run-synced-history');
    await page.goto(`${stack.webUrl}/app`);
    const card = page.getByRole('region', { name: "This week's goal" });
    await card.getByText(`${goal.percentage}%`, { exact: true }).waitFor();
    expect(goal.percentage).toBe(Math.floor((goal.progress / 5) * 100));
  });
});
