import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { screenshot, signedInUser } from './support/journey.ts';

/**
 * Connected apps on a server where nobody has set up Strava (the default of `npm start`): what the screen tells the
 * runner, and the operator looking at it, and the cards that are honest about 2026 (no Google Fit; Health Connect
 * and Apple Health in the native app; Garmin's watches through their FIT files).
 */
describe('connected apps on a server without Strava configured', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack({
      config: { STRAVA_CLIENT_ID: undefined, STRAVA_CLIENT_SECRET: undefined },
    });
    ({ context, page } = await signedInUser(stack, 'Opal Operator'));
    await page.goto(`${stack.webUrl}/connected-apps`);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  it('Connect on Strava says on its card which variables an operator must set', async () => {
    const strava = page.getByRole('region', { name: 'Strava' });
    await strava.getByRole('button', { name: 'Connect' }).click();
    const refusal = strava.getByRole('alert');
    await refusal.waitFor();
    const text = await refusal.textContent();
    expect(text).toContain('Strava is not configured. An operator must set');
    for (const variable of ['STRAVA_CLIENT_ID', 'STRAVA_CLIENT_SECRET', 'STRAVA_WEBHOOK_VERIFY_TOKEN', 'STRAVA_API_URL'])
      expect(text).toContain(variable);
    // Still on the screen: nothing left for a provider's page.
    expect(page.url()).toBe(`${stack.webUrl}/connected-apps`);
    await screenshot(page, 'connected-apps-strava-not-configured');
  });

  it('shows no Google Fit; Health Connect and Apple Health point to the app; Garmin to importing a FIT file', async () => {
    expect(await page.getByText('Google Fit').count()).toBe(0);
    const healthConnect = page.getByRole('region', { name: 'Health Connect' });
    const androidApp = healthConnect.getByRole('button', { name: 'Available in the StrideStake app for Android' });
    expect(await androidApp.isDisabled()).toBe(true);
    const appleHealth = page.getByRole('region', { name: 'Apple Health' });
    const iPhoneApp = appleHealth.getByRole('button', { name: 'Available in the StrideStake app for iPhone' });
    expect(await iPhoneApp.isDisabled()).toBe(true);

    const garmin = page.getByRole('region', { name: 'Garmin' });
    await garmin.getByText('Garmin watches (and Coros, Polar and Suunto ones) write FIT files').waitFor();
    await garmin.getByRole('link', { name: 'Import a FIT file' }).click();
    await page.waitForURL(`${stack.webUrl}/run-history#import`);
    await page.getByRole('heading', { name: 'Run History' }).waitFor();
    // The run history's file import (GPX, TCX or FIT) is there to use.
    await page.getByRole('region', { name: 'Import a file' }).getByText('Import a file').waitFor();
    // The link's anchor is that section, scrolled into view.
    expect(await page.locator('#import').getAttribute('aria-label')).toBe('Import a file');
    const box = (await page.locator('#import').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(page.viewportSize()!.height);
  });
});
