import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/test-runtime.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import {
  closeCelebrations,
  createStakedRunGoal,
  moveTime,
  newPhone,
  openApp,
  runWorkers,
  screenshot,
  signUp,
} from './support/money-journey.ts';

/*
 * Issue 25 items 1 and 5 in Debian's chromium at 390×844 (New York time): a $10 stake on this week's goal with a
 * Mastercard (a 7-day hold, placed at once), the hold's timeline and capture deadline on the Stakes tab and the goal
 * card, the missed week settled on Monday (the hold captured, with its reason), and the receipt opened from the
 * donation impact card. Every assertion is on what the runner sees.
 */
const WED_NOV_18 = '2026-11-18T17:00:00Z'; // 12:00 in New York
const FRI_NOV_20 = '2026-11-20T15:30:00Z';
const MON_NOV_23 = '2026-11-23T05:00:30Z'; // just after 00:00 in New York: the week of Nov 16 is settled

describe.each(databaseTargets())('the hold timeline and the receipt in the browser on %s', (target) => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack({ target, now: WED_NOV_18 });
    ({ context, page } = await newPhone(stack));
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  const row = () => page.getByRole('list', { name: 'Stakes' }).locator('li.stake-row', { hasText: 'Week of Nov 16' });
  const timeline = () => row().getByRole('list', { name: 'Hold timeline' });

  it('a staked goal this week: the Stakes tab shows the hold placed and its capture deadline counting down', async () => {
    await signUp(page, stack, 'Rosa Reyes', `rosa-${target}-${process.pid}@example.com`);
    await createStakedRunGoal(page, stack, 3);

    // The goal is active at once: the workers place the hold (Mastercard: 7 days, until Wed Nov 25 12:00 PM).
    await runWorkers(stack);
    await moveTime(stack, context, FRI_NOV_20);
    await openApp(page, stack, '/profile?tab=stakes');
    await row().getByText('Active', { exact: true }).waitFor();
    await timeline().getByText('Hold placed').waitFor();
    await timeline().getByText('Your goal is under way: a hold for the stake is placed on your card.').waitFor();
    await timeline().getByText('Wed, Nov 18, 12:00 PM').waitFor();
    // Friday 10:30 AM New York → Wednesday 12:00 PM: 5 days 1 hour 30 minutes, counted down in whole units.
    await row().getByText('Capture before Wed, Nov 25, 12:00 PM · 5 days 1 hour left').waitFor();
    await screenshot(page, `${target}-25-stakes-tab-hold-placed`, row());

    // The goal card says the same deadline.
    await openApp(page, stack, '/app');
    await closeCelebrations(page);
    await page
      .getByRole('region', { name: "This week's goal" })
      .getByText('Capture before Wed, Nov 25, 12:00 PM · 5 days 1 hour left')
      .waitFor();
  });

  it('the missed week is settled: the timeline shows the capture with its reason, the countdown is gone', async () => {
    await moveTime(stack, context, MON_NOV_23);
    await runWorkers(stack);
    await openApp(page, stack, '/profile?tab=stakes');
    await row().getByText('Forfeited', { exact: true }).waitFor();
    await timeline().getByText('Captured', { exact: true }).waitFor();
    await timeline()
      .getByText('You missed your goal: $10.00 captured from the hold ($8.00 to your charity, $2.00 service fee).')
      .waitFor();
    expect(await row().getByText('Capture before').count()).toBe(0);
    expect(await timeline().getByRole('listitem').allInnerTexts()).toHaveLength(3);
    await screenshot(page, `${target}-25-stakes-tab-captured`, row());
  });

  it('the receipt opens from the donation impact card with the amount, the charity and the date, and prints alone', async () => {
    const impact = page.getByRole('region', { name: 'Donation impact' });
    await impact.getByText('$8.00', { exact: true }).waitFor();
    await impact.getByRole('link', { name: 'Receipt · Week of Nov 16' }).click();
    await page.waitForURL(/\/stakes\/[^/]+\/receipt$/);
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await receipt.getByText('$10.00', { exact: true }).waitFor();
    await receipt.getByText('Against Malaria Foundation').waitFor();
    await receipt.getByText('Mon, Nov 23, 12:00 AM').waitFor();
    await receipt.getByText('$8.00', { exact: true }).waitFor();
    await receipt.getByText('$2.00', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Print' }).waitFor();
    await screenshot(page, `${target}-25-receipt`);
    // On paper only the receipt: no navigation, no Back link, no Print button.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await receipt.isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
  });
});
