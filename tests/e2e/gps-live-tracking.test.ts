import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../support/users.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { skipTour } from './support/journey.ts';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 };
const TIMEOUT = 15_000;

/**
 * The browser's GPS, replaced before the app loads: a runner heading north at 5:30/km, a fix every 2 s with 8 m
 * accuracy, timed by the page's clock (which the test drives), so minutes of running pass in seconds.
 */
const FAKE_GPS = `(() => {
  let started = null;
  const position = () => {
    const now = Date.now();
    const metres = started === null ? 0 : ((now - started) / 1000) * (1000 / 330);
    return {
      coords: { latitude: 51.5 + metres / 111195, longitude: -0.12, accuracy: 8, altitude: null,
        altitudeAccuracy: null, heading: null, speed: null },
      timestamp: now,
    };
  };
  const geolocation = {
    getCurrentPosition(ok) { setTimeout(() => ok(position()), 0); },
    watchPosition(ok) {
      if (started === null) started = Date.now();
      return setInterval(() => ok(position()), 2000);
    },
    clearWatch(id) { clearInterval(id); },
  };
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
})();`;

describe('the GPS tracker in a browser sends its fixes while the run lasts', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let user: TestUser;

  beforeAll(async () => {
    stack = await startE2eStack();
    user = await createTestUser(stack.runtime, 'tracker');
    context = await stack.browser.newContext(PHONE);
    await context.addInitScript(FAKE_GPS);
    await context.addInitScript(skipTour);
    // The page's clock and the server's start together; the test moves both forward by the same amounts.
    await context.clock.install({ time: stack.runtime.clock.now() });
    page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** Lets `ms` of running pass in the page and on the server. */
  async function run(ms: number) {
    for (let t = 0; t < ms; t += 15_000) {
      stack.runtime.clock.advance(15_000);
      await context.clock.runFor(15_000);
      await page.waitForTimeout(150); // real time for the upload request to land
    }
  }

  it('opens a session at start, uploads while running, and shows what counted (no goal this week, so no stake is named)', async () => {
    await page.goto(`${stack.webUrl}/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${stack.webUrl}/app`);
    await page.goto(`${stack.webUrl}/run`);
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();

    await run(6 * 60_000);
    const [started] = (await stack.runtime.store.readStream(`tracking-${user.id}`)).filter(
      (e) => e.type === 'TrackingStarted',
    );
    const sessionId = (started!.data as { sessionId: string }).sessionId;
    const uploads = await stack.runtime.store.readStream(`tracking-session-${sessionId}`);
    // Every 15 s for 6 minutes: the track reached the server as it was run, not at the end.
    expect(uploads.length).toBeGreaterThanOrEqual(20);

    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('button', { name: 'Stop & Save' }).click();
    const summary = page.getByRole('dialog', { name: /Run saved!|Goal complete!/ });
    await summary.waitFor();
    await summary.getByText('Verified').waitFor();
    expect(await summary.getByText(/Counted all 1\.\d\d km$/).count()).toBe(1);

    // The session ended on the run it recorded (a run is named by its recording, not by its session).
    const finished = (await stack.runtime.store.readStream(`tracking-${user.id}`)).find(
      (e) => e.type === 'TrackingFinished' && (e.data as { sessionId: string }).sessionId === sessionId,
    );
    const savedRunId = (finished!.data as { runId: string | null }).runId;
    expect(savedRunId).not.toBeNull();
    const [run1] = (await stack.runtime.request('GET', '/runs', { token: user.token })).body.data;
    expect(run1).toMatchObject({ id: savedRunId, verification: { verdict: 'verified', reasons: [] } });
    expect(run1.verification.stake_distance_km).toBeGreaterThan(1);

    await summary.getByRole('button', { name: 'Done' }).click();
    await page.goto(`${stack.webUrl}/run-history`);
    await page.getByText(/Counted all 1\.\d\d km$/).waitFor();
  });
});
