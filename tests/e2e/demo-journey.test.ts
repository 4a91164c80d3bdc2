import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { phonePage, screenshot } from './support/journey.ts';

/** A Wednesday morning in New York, so the sample week is half run. */
const WEDNESDAY = '2026-11-25T15:00:00.000Z';

describe('journey: a visitor tries the demo without an account', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ context, page } = await phonePage(stack.browser));
    await context.clock.install({ time: new Date(WEDNESDAY) });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('opens the demo from the landing page: sample data, no sign-in, no app-store prompt on a desktop browser', async () => {
    await page.goto(stack.webUrl);
    await page.getByRole('button', { name: 'Try the Demo' }).click();
    await page.waitForURL(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name: 'Demo Runner' }).waitFor();
    await page.getByText('Demo mode — sample data, nothing is saved to your account').waitFor();
    await page.getByRole('region', { name: "This week's goal" }).getByText('Run 20 km').waitFor();
    expect(await page.getByRole('complementary', { name: 'Get the app' }).count()).toBe(0);
  });

  it('has a sample group with members, a level leaderboard, team challenges and a feed to react in', async () => {
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('link', { name: /Sunrise Striders/ }).click();
    await page.getByRole('heading', { name: 'Sunrise Striders' }).waitFor();
    await page.getByText('4 members').waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    for (const name of ['Demo Runner', 'Maya Chen', 'Leo Park', 'Sam Rivera']) await members.getByText(name).waitFor();
    const board = page.getByRole('region', { name: 'Leaderboard' });
    const lines = await board.locator('li').allTextContents();
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/#1\s*Maya Chen.*Level \d+ · 4,200 XP/);
    await screenshot(page, 'demo-group-members-leaderboard', board);

    const challenges = page.getByRole('region', { name: 'Team challenges' });
    const week = await challenges.locator('li').allTextContents();
    expect(week[0]).toMatch(/Maya Chen.*16\.20 km/);
    await screenshot(page, 'demo-group-challenges-this-week', challenges);
    await challenges.getByRole('tab', { name: 'Streaks' }).click();
    await challenges.locator('li', { hasText: 'Maya Chen' }).getByText('6 wk').waitFor();
    await challenges.getByRole('tab', { name: 'Best Pace' }).click();
    await challenges.locator('li', { hasText: 'Maya Chen' }).getByText('5K 4:54 /km').waitFor();

    const feed = page.getByRole('region', { name: 'Activity feed' });
    const card = feed.locator('.feed-item', { hasText: 'Maya Chen completed a run' }).first();
    const fire = card.getByRole('button', { name: /^Fire: \d+$/ });
    const before = Number((await fire.getAttribute('aria-label'))!.split(': ')[1]);
    await fire.click();
    await card.getByRole('button', { name: `Fire: ${before + 1}`, pressed: true }).waitFor();
    await screenshot(page, 'demo-group-feed-reaction', card);
    await card.getByRole('button', { name: `Fire: ${before + 1}` }).click();
    await card.getByRole('button', { name: `Fire: ${before}`, pressed: false }).waitFor();
  });

  it('shows a past goal’s stats with its runs and figures, and human dates', async () => {
    await page.getByRole('link', { name: 'Goals' }).click();
    const past = page.getByRole('region', { name: 'Past goals' });
    await past.getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Goal Stats' }).waitFor();
    await page.getByText(/^Week of Nov 16 · (completed|missed)$/).waitFor();
    for (const figure of ['Total runs', 'Distance', 'Total time', 'Average pace', 'Average speed']) {
      const value = await page.locator('.stat', { hasText: figure }).locator('strong').textContent();
      expect(value, figure).not.toBe('—');
    }
    expect(
      await page
        .locator('.stat', { hasText: 'Average speed' })
        .getByText(/^\d+\.\d km\/h$/)
        .isVisible(),
    ).toBe(true);
    const runs = page.locator('section', { hasText: 'Runs this week' }).locator('li');
    expect(await runs.count()).toBeGreaterThan(0);
    expect(await page.getByText('No runs in this week.').count()).toBe(0);
    await screenshot(page, 'demo-goal-stats');

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('tab', { name: 'Stakes' }).click();
    await page.getByText(/^Week of Nov 23/).waitFor();
    expect(await page.getByText(/\d{4}-\d{2}-\d{2}/).count()).toBe(0);
    await screenshot(page, 'demo-stakes-human-dates');
  });

  it('shows XP per run in the run history, with the Surge Bonus mark on the surged sample run', async () => {
    await page.goto(`${stack.webUrl}/run-history`);
    const rows = page.locator('.run-row');
    await rows
      .first()
      .getByText(/^\+\d+ XP/)
      .waitFor();
    const surged = rows.filter({ hasText: 'Surge Bonus' });
    expect(await surged.count()).toBe(1);
    await screenshot(page, 'demo-run-history-xp-surge-bonus', surged);
    // Each row says what the run counted toward a stake, as the server's run policy would.
    await rows.first().getByText('Verified').waitFor();

    // A sample run opens on its detail view: the route drawn from its sample track, per-km splits.
    await surged.getByRole('link').click();
    await page.getByRole('img', { name: /^Route map/ }).waitFor();
    // Its time, pace and the XP it earned, with the surge it fell in.
    const stats = page.locator('.summary-stats');
    await stats.getByText(/^\+\d+ XP/).waitFor();
    await stats.getByText('Surge Bonus').waitFor();
    await page.getByRole('region', { name: 'Splits' }).waitFor();
    expect(await page.getByRole('region', { name: 'Splits' }).getByRole('row').count()).toBeGreaterThan(1);
    await screenshot(page, 'demo-run-detail-route-splits');
  });

  it('a screen that cannot render (demo data corrupted in storage) says so and the navigation still works', async () => {
    await page.evaluate(() => {
      const key = 'stridestake.demo-data';
      const data = JSON.parse(localStorage.getItem(key) ?? '{}');
      // Notes that are not text: React cannot render an object.
      data.runs[0].notes = { text: 'tempo' };
      localStorage.setItem(key, JSON.stringify(data));
    });
    await page.goto(`${stack.webUrl}/run-history`);
    await page.getByRole('alert').getByText('Something went wrong on this screen').waitFor();
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('link', { name: /Sunrise Striders/ }).waitFor();
    expect(await page.getByText('Something went wrong on this screen').count()).toBe(0);
  });
});
