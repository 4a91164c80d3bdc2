import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStrava, STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET } from '../support/strava-stand-in.ts';
import { settle } from '../support/users.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { screenshot, signedInUser } from './support/journey.ts';

const ATHLETE = 3003;
const DAY = 24 * 60 * 60_000;

describe('journey: connecting a running service and coming back', () => {
  const strava = new FakeStrava();
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;

  const stravaCard = () => page.getByRole('region', { name: 'Strava' });
  const run = (id: number, startMs: number) => ({
    id,
    athleteId: ATHLETE,
    sportType: 'Run',
    startMs,
    distanceM: 5_000,
    movingTimeSec: 1_650,
    track: true,
  });

  beforeAll(async () => {
    await strava.start();
    stack = await startE2eStack({
      config: { STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_API_URL: strava.url },
    });
    strava.clock = stack.runtime.clock;
    const now = stack.runtime.clock.now().getTime();
    // The athlete's last month on Strava: three runs inside the 30-day backfill, one older.
    for (const [i, days] of [2, 6, 20, 45].entries()) strava.add(run(100 + i, now - days * DAY));
    ({ context, page } = await signedInUser(stack, 'Dee Strider'));
    await page.goto(`${stack.webUrl}/connected-apps`);
    await stravaCard().getByRole('button', { name: 'Connect' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await strava.stop();
  });

  it('connects Strava through its authorization page; the return announces the 30-day backfill, which fills the history', async () => {
    strava.consent = { athleteId: ATHLETE, decision: 'approve' };
    await stravaCard().getByRole('button', { name: 'Connect' }).click();
    // Strava's page, our callback, and back to the app with the code and state in the fragment; the app completes
    // the connection with its own session (the API links only for the session that started) and drops the fragment.
    await page.waitForURL(`${stack.webUrl}/connected-apps`);
    await page
      .getByRole('status')
      .filter({ hasText: 'Strava connected! Importing your runs from the last 30 days.' })
      .waitFor();
    await stravaCard().getByText('Connected · importing your runs from the last 30 days…').waitFor();
    await screenshot(page, 'connected-apps-success-backfill-importing');

    // The sync worker queues the backfill on the connection event, and its next tick reads the 30 days.
    await settle(stack.runtime);
    await stack.runtime.processes.tick();
    await stravaCard().getByText('Connected · last synced just now').waitFor();
    await stravaCard().getByRole('button', { name: 'Sync Now' }).waitFor();
    await screenshot(page, 'connected-apps-connected-sync-disconnect');

    await page.goto(`${stack.webUrl}/run-history`);
    await page.locator('.run-row').nth(2).waitFor();
    expect(await page.locator('.run-row').count()).toBe(3);
    expect(await page.locator('.run-row .source-badge', { hasText: 'Strava' }).count()).toBe(3);
    await screenshot(page, 'connected-apps-backfilled-runs-in-history');
  });

  it('Sync Now imports a new run; a refused sync shows Strava’s reason', async () => {
    strava.add(run(200, stack.runtime.clock.now().getTime() - 60 * 60_000));
    await page.goto(`${stack.webUrl}/connected-apps`);
    await stravaCard().getByRole('button', { name: 'Sync Now' }).click();
    await page.locator('.toast', { hasText: 'Sync complete' }).getByText('1 new run imported.').waitFor();

    strava.failures.push({ match: (r) => r.path === '/api/v3/athlete/activities', status: 429, times: 1 });
    await stravaCard().getByRole('button', { name: 'Sync Now' }).click();
    const failure = page.locator('.toast-error', { hasText: 'Sync failed' });
    await failure.getByText('Strava rate limit reached. Please try again later.').waitFor();
    await screenshot(page, 'connected-apps-sync-failed-with-reason');
  });

  it('Disconnect ends the connection and leaves the imported runs', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await stravaCard().getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('.toast', { hasText: 'Strava disconnected' }).waitFor();
    await stravaCard().getByRole('button', { name: 'Connect' }).waitFor();
    await page.goto(`${stack.webUrl}/run-history`);
    await page.locator('.run-row').nth(3).waitFor();
  });

  it('a denied authorization comes back with its message', async () => {
    strava.consent = { athleteId: ATHLETE, decision: 'deny' };
    await page.goto(`${stack.webUrl}/connected-apps`);
    await stravaCard().getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(`${stack.webUrl}/connected-apps`);
    await page.getByRole('alert').filter({ hasText: 'Access was denied. Please try again.' }).waitFor();
    await stravaCard().getByRole('button', { name: 'Connect' }).waitFor();
    await screenshot(page, 'connected-apps-error-access-denied');
  });

  it('a hand-over this session did not start (a link someone sent) connects nothing and says so', async () => {
    await page.goto(`${stack.webUrl}/run-history`); // a page load (a fragment alone would not load the page)
    await page.goto(`${stack.webUrl}/connected-apps#provider=strava&code=sent-code&state=not-started-here&scope=read`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'The connection request expired or did not start here. Please connect again.' })
      .waitFor();
    await page.waitForURL(`${stack.webUrl}/connected-apps`);
    await stravaCard().getByRole('button', { name: 'Connect' }).waitFor();
  });

  it('every other return error has its own message, and an unknown one the generic message', async () => {
    for (const [error, message] of [
      ['callback_failed', 'Connection failed. Please try again.'],
      ['invalid_request', 'The connection request was incomplete. Please try again.'],
      ['invalid_state', 'The connection request expired or did not start here. Please connect again.'],
      ['server_error', 'An error occurred'],
    ] as const) {
      await page.goto(`${stack.webUrl}/connected-apps?error=${error}`);
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      await page.waitForURL(`${stack.webUrl}/connected-apps`);
      await screenshot(page, `connected-apps-error-${error.replace('_', '-')}`);
    }
  });

  it('Garmin looks connectable and its Connect answers the API’s not-implemented message; its card offers the FIT file import; Health Connect and Apple Health are in the app; no Google Fit', async () => {
    const garmin = page.getByRole('region', { name: 'Garmin' });
    await garmin.getByRole('button', { name: 'Connect' }).click();
    const toast = page.locator('.toast-error', { hasText: 'Failed to connect to Garmin' });
    await toast.getByText('Garmin connection is not implemented yet').waitFor();
    expect(page.url()).toBe(`${stack.webUrl}/connected-apps`);
    await garmin.getByRole('link', { name: 'Import a FIT file' }).waitFor();
    for (const [name, where] of [
      ['Health Connect', 'Available in the StrideStake app for Android'],
      ['Apple Health', 'Available in the StrideStake app for iPhone'],
    ] as const) {
      expect(await page.getByRole('region', { name }).getByRole('button', { name: where }).isDisabled()).toBe(true);
    }
    // Google Fit's APIs shut down in 2026: no card offers it.
    expect(await page.getByText('Google Fit').count()).toBe(0);
    await screenshot(page, 'connected-apps-garmin-not-implemented');
    await context.close();
  });
});
