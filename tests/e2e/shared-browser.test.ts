import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient } from '../api/auth-helpers.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { emitFix, type Fix, installFakeGps, parkRun } from './support/fake-gps.ts';
import { PASSWORD, screenshot, signedInUser, signInWithPassword, signOutFromProfile } from './support/journey.ts';

const FIX_EVERY_SEC = 3;
/** Half a kilometre around a park in London at 5:30/km (2:45 of running), a fix every 3 s. */
const TRACK: Fix[] = parkRun({ km: 0.5, paceSecPerKm: 330, everySec: FIX_EVERY_SEC });
/** Any coordinate of the park loop (51.5079, -0.1655, radius 127 m), as stored or as sent: where the runner runs. */
const A_FIX = /51\.50[6-9]\d|-0\.16[3-7]\d/;

/**
 * In the page: everything the app could have left on the device — local storage, session storage and every
 * IndexedDB database's stores. A script, not a function: the test side has no DOM types.
 */
const DEVICE_STORAGE = `(async () => {
  const dump = (storage) => Object.fromEntries(Object.keys(storage).map((k) => [k, storage.getItem(k)]));
  const idb = {};
  for (const { name } of await indexedDB.databases()) {
    const db = await new Promise((ok, ko) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => ok(open.result);
      open.onerror = () => ko(open.error);
    });
    for (const store of db.objectStoreNames) {
      idb[name + '/' + store] = await new Promise((ok, ko) => {
        const all = db.transaction(store).objectStore(store).getAll();
        all.onsuccess = () => ok(all.result);
        all.onerror = () => ko(all.error);
      });
    }
    db.close();
  }
  return { local: dump(localStorage), session: dump(sessionStorage), idb };
})()`;

interface DeviceStorage {
  readonly local: Record<string, string>;
  readonly session: Record<string, string>;
  readonly idb: Record<string, unknown[]>;
}

describe('journey: a shared browser keeps nothing of the runner who signed out', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let a = { email: '', userId: '' };
  let b = { email: '', userId: '' };

  const deviceStorage = async () => (await page.evaluate(DEVICE_STORAGE)) as DeviceStorage;
  const token = async (email: string) =>
    (
      await authClient(stack.runtime)('POST', '/auth/v1/token?grant_type=password', {
        body: { email, password: PASSWORD },
      })
    ).body.access_token as string;
  const runsOf = async (email: string) =>
    (await stack.runtime.request('GET', '/runs', { token: await token(email) })).body.data as { id: string }[];

  const signOut = () => signOutFromProfile(page, stack.webUrl);
  const signIn = (email: string) => signInWithPassword(page, stack.webUrl, email);
  /** Runs TRACK on the page's clock (the server's follows it) and stops; the caller waits for what follows. */
  const recordRun = async () => {
    await page.goto(`${stack.webUrl}/run`);
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    await page.clock.pauseAt(new Date((await page.evaluate(() => Date.now())) + 1_000));
    stack.runtime.clock.set(new Date(await page.evaluate(() => Date.now())));
    for (const [i, fix] of TRACK.entries()) {
      if (i > 0) {
        stack.runtime.clock.advance(FIX_EVERY_SEC * 1000);
        await page.clock.fastForward(FIX_EVERY_SEC * 1000);
      }
      await emitFix(page, fix);
      if (i % 5 === 0) await page.waitForTimeout(50);
    }
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    await page.clock.resume();
    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('dialog', { name: 'Stop tracking?' }).getByRole('button', { name: 'Stop & Save' }).click();
  };

  beforeAll(async () => {
    stack = await startE2eStack();
    // Runner B has an account; they use this browser later, after A.
    const other = await signedInUser(stack, 'Ben Borrower');
    b = { email: other.email, userId: other.userId };
    await other.context.close();
    // The tour is left on: whose flag it is is part of the journey.
    const first = await signedInUser(stack, 'Ann Shared', { tourSeen: false });
    ({ context, page } = first);
    a = { email: first.email, userId: first.userId };
    await context.clock.install({ time: stack.runtime.clock.now() });
    await installFakeGps(context, TRACK[0]!);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('after Sign Out, no GPS fix of the run A recorded is left in local storage, session storage or IndexedDB', async () => {
    await recordRun();
    const summary = page.getByRole('dialog', { name: 'Run saved!' });
    await summary.waitFor();
    await summary.getByRole('button', { name: 'Done' }).click();
    expect(await runsOf(a.email)).toHaveLength(1);
    // The app keeps the run's track to draw it (and the check below would see it).
    const before = await deviceStorage();
    expect(JSON.stringify(before)).toMatch(A_FIX);
    expect(Object.keys(before.local).some((k) => k.startsWith(`stridestake.user.${a.userId}.`))).toBe(true);

    await signOut();
    const after = await deviceStorage();
    expect(JSON.stringify(after)).not.toMatch(A_FIX);
    // Nothing of A's at all: no key of theirs, nor their session.
    expect(
      Object.keys(after.local).filter((k) => k.startsWith('stridestake.user') || k === 'stridestake.auth'),
    ).toEqual([]);
    expect(JSON.stringify(after)).not.toContain(a.userId);
    expect(after.session).toEqual({});
    // A reload keeps it so (nothing was only hidden).
    await page.reload();
    expect(JSON.stringify(await deviceStorage())).not.toMatch(A_FIX);
  });

  it('the tour A saw is A’s: B signing in on the same browser gets their own', async () => {
    const tour = page.getByRole('dialog', { name: 'Welcome' });
    await signIn(a.email);
    await tour.waitFor();
    await tour.getByRole('button', { name: 'Skip' }).click();
    await tour.waitFor({ state: 'detached' });
    // Seen is remembered for A: the dashboard again, no tour.
    await page.reload();
    await page.getByRole('heading', { name: 'Ann Shared' }).waitFor();
    await page.waitForTimeout(2_000);
    expect(await tour.count()).toBe(0);

    await signOut();
    await signIn(b.email);
    await page.getByRole('heading', { name: 'Ben Borrower' }).waitFor();
    await tour.waitFor();
    await screenshot(page, 'shared-browser-tour-for-the-next-runner');
    await tour.getByRole('button', { name: 'Skip' }).click();
    const local = (await deviceStorage()).local;
    expect(local[`stridestake.user.${b.userId}.tour-seen`]).toBe('true');
    expect(Object.keys(local).filter((k) => k.includes(a.userId))).toEqual([]);
    await signOut();
  });

  it('A’s run kept offline stays tied to A: not sent while B is signed in, sent when A is back', async () => {
    // The save cannot get through (the phone lost its signal as the run ended); every attempt is counted.
    let attempts = 0;
    const saves = (url: URL) => url.pathname === '/runs/gps/finish' || url.pathname === '/runs';
    const refuse = async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      attempts += 1;
      return route.abort('internetdisconnected');
    };
    await context.route(saves, refuse);
    await signIn(a.email);
    await page.getByRole('dialog', { name: 'Welcome' }).getByRole('button', { name: 'Skip' }).click();
    await recordRun();
    await page.getByText('Waiting to sync: no connection, so your run is kept on this phone').waitFor();
    await page
      .getByRole('region', { name: 'Runs on this phone' })
      .getByText('Waiting to sync', { exact: true })
      .waitFor();
    expect(await runsOf(a.email)).toHaveLength(1);

    await signOut();
    // The unsent run stays on the device, with its user.
    const kept = (await deviceStorage()).idb['stridestake-offline/pending-runs'] as { userId: string }[];
    expect(kept.map((r) => r.userId)).toEqual([a.userId]);

    await signIn(b.email);
    attempts = 0;
    // The queue is tried at start, when the network comes back and every 30 s: none of it sends A's run as B.
    await page.evaluate("dispatchEvent(new Event('online'))");
    await page.clock.fastForward(31_000);
    await page.waitForTimeout(1_500);
    expect(attempts).toBe(0);
    await page.goto(`${stack.webUrl}/run`);
    await page.getByRole('button', { name: 'Start Run' }).waitFor();
    expect(await page.getByRole('region', { name: 'Runs on this phone' }).count()).toBe(0);
    expect(await runsOf(b.email)).toEqual([]);
    await signOut();

    // The signal is back and A signs in again: A's run goes, as A's.
    await context.unroute(saves, refuse);
    await signIn(a.email);
    await page.getByRole('alert').filter({ hasText: 'Run synced' }).waitFor();
    expect(await runsOf(a.email)).toHaveLength(2);
    expect(await runsOf(b.email)).toEqual([]);
    expect((await deviceStorage()).idb['stridestake-offline/pending-runs']).toEqual([]);
  });
});
