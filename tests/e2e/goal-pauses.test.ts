import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import {
  closeCelebrations,
  logRun,
  moveTime,
  newPhone,
  openApp,
  runWorkers,
  screenshot,
  signUp,
} from './support/money-journey.ts';

/*
 * Pauses with notice (issue 25) in Debian's chromium: on Tuesday 17 November 2026 at 00:00 New York the runner tries
 * to pause next week (exactly 6 days ahead: refused, the sentence on screen), then the week of Nov 30 (accepted,
 * "Paused"). Weeks of Nov 16 and Nov 23 are completed; during the week after the paused one the dashboard still
 * shows the 2-week streak.
 */
const TUE_NOV_17 = '2026-11-17T05:00:00Z';
const MON_NOV_23 = '2026-11-23T17:00:00Z';
const WED_NOV_25 = '2026-11-25T17:00:00Z';
const MON_NOV_30 = '2026-11-30T17:00:00Z';
const FRI_DEC_4 = '2026-12-04T17:00:00Z';
const TUE_DEC_8 = '2026-12-08T17:00:00Z';

describe('pausing a week with notice, in the browser', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack({ now: TUE_NOV_17 });
    ({ context, page } = await newPhone(stack));
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  const freeGoal = async (button: RegExp) => {
    await openApp(page, stack, '/goals');
    await page.getByRole('button', { name: button }).click();
    await page.getByRole('button', { name: /Number of runs/ }).click();
    await page.getByLabel('Target (runs)').fill('1');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    const step = page.getByRole('dialog', { name: 'Choose a Charity' });
    await step.getByRole('button', { name: 'Create Goal' }).click();
    await step.waitFor({ state: 'detached' });
  };

  it('completes this week, plans next week, and is refused a pause six days ahead with the sentence', async () => {
    await signUp(page, stack, 'Paula Pause', `paula-${process.pid}@example.com`);
    await freeGoal(/Create Your First Goal/);
    await logRun(page, stack, '2026-11-17T04:00:00Z', 3);
    await freeGoal(/Plan Next Week/);
    await openApp(page, stack, '/goals');
    await page.getByRole('button', { name: 'Pause a Week' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause a Week' });
    await dialog.getByLabel('Week').selectOption('2026-11-30');
    await dialog.getByLabel('Travel').check();
    await dialog.getByLabel('Week').selectOption('2026-11-23');
    await dialog.getByRole('button', { name: 'Pause Week' }).click();
    await dialog
      .getByRole('alert')
      .getByText(
        'Pauses must be set at least 7 days ahead. The earliest week you can pause starts Monday, November 30.',
      )
      .waitFor();
    await screenshot(page, 'pause-refused-six-days-ahead');
    await dialog.getByLabel('Week').selectOption('2026-11-30');
    await dialog.getByRole('button', { name: 'Pause Week' }).click();
    await dialog.waitFor({ state: 'detached' });
    const paused = page.getByRole('region', { name: 'Paused weeks' });
    const row = paused.getByRole('listitem').filter({ hasText: 'Week of Nov 30' });
    await row.getByText('Paused', { exact: true }).waitFor();
    await row.getByText('Travel').waitFor();
    await screenshot(page, 'pause-accepted');
  });

  /** Days pass as the runner opens the app now and then (a session left unused for a week ends). */
  const openLater = async (iso: string) => {
    await moveTime(stack, context, iso);
    await runWorkers(stack);
    await openApp(page, stack, '/app');
    await closeCelebrations(page);
  };

  it('completes the week of Nov 23; in the week after the paused one the streak is kept', async () => {
    await openLater(MON_NOV_23);
    await moveTime(stack, context, WED_NOV_25);
    await runWorkers(stack);
    await logRun(page, stack, '2026-11-25T15:00:00Z', 3);
    await runWorkers(stack);
    await openApp(page, stack, '/app');
    await closeCelebrations(page);
    await openLater(MON_NOV_30);
    await openLater(FRI_DEC_4);
    await openLater(TUE_DEC_8);
    const current = page.locator('section.stat', { hasText: 'Current streak' });
    await current.getByText('2 weeks').waitFor();
    expect(await current.textContent()).toContain('2 weeks');
    await screenshot(page, 'pause-streak-kept');
  });
});
