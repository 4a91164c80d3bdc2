import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';

/** A phone-sized window: the app is mobile-first. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 };
const TIMEOUT = 15_000;

describe('the web app in a browser against the real server', () => {
  let stack: E2eStack;
  let user: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack();
    user = await stack.browser.newContext(PHONE);
    page = await user.newPage();
    page.setDefaultTimeout(TIMEOUT);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const email = `e2e-${process.pid}@example.com`;
  const password = 'correct horse battery';

  it('signs up, confirms through the mailed link, signs in and lands on the dashboard with no goal', async () => {
    await page.goto(`${stack.webUrl}/signup`);
    await page.getByLabel('Display name').fill('Ada Runner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Password too short').waitFor();

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    expect(await page.getByRole('link', { name: 'Go to Sign In' }).isVisible()).toBe(true);

    const mailbox = await fetch(`${stack.apiUrl}/dev/mail?to=${encodeURIComponent(email)}`);
    const { mail } = (await mailbox.json()) as { mail: { links: string[] }[] };
    const confirm = await fetch(mail[0]!.links[0]!, { redirect: 'manual' });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).not.toContain('error=');

    await page.getByRole('link', { name: 'Go to Sign In' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name: 'Ada Runner' }).waitFor();
    await page.getByRole('heading', { name: 'No active goal' }).waitFor();
    await page.getByText('Rookie Runner').first().waitFor();
    await page.getByText('No activity yet').waitFor();
  });

  it('shows the onboarding tour once, about a second after the first dashboard load', async () => {
    const tour = page.getByRole('dialog', { name: 'Welcome' });
    await tour.waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'Put Money on the Line' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await tour.waitFor();
    for (const title of ['Put Money on the Line', 'Run with Friends', 'Track Your Progress']) {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('dialog', { name: title }).waitFor();
    }
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.reload();
    await page.getByRole('heading', { name: 'Ada Runner' }).waitFor();
    await page.waitForTimeout(1_500);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('refuses a distance target over the weekly limit with the spec message', async () => {
    await page.getByRole('link', { name: 'Set a Goal' }).click();
    await page.getByRole('heading', { name: 'No active goal for this week' }).waitFor();
    await page.getByRole('button', { name: 'Create Your First Goal' }).click();
    await page.getByLabel('Target (km)').fill('900');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Distance goal cannot exceed 804.67 km per week').waitFor();
  });

  it('creates a free distance goal through the wizard and shows it on the dashboard at 0%', async () => {
    await page.getByLabel('Target (km)').fill('20');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'Add a Stake' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    // Free goal: straight to the charity step, and back goes to the stake step (§2 back rules).
    await page.getByRole('dialog', { name: 'Choose a Charity' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('dialog', { name: 'Add a Stake' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Create Goal' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Home' }).click();
    const card = page.getByRole('region', { name: "This week's goal" });
    await card.waitFor();
    expect(await card.getByText('0%').isVisible()).toBe(true);
    expect(await card.getByText("Let's get started!").isVisible()).toBe(true);
    expect(await card.getByText('Run 20 km').isVisible()).toBe(true);
    // The sign-up toast may still be showing; the screenshot is of the dashboard itself.
    await page.locator('.toast').first().waitFor({ state: 'detached', timeout: 10_000 });
    await page.screenshot({ path: '/tmp/stridestake-dashboard.png', fullPage: true });
  });

  it('sends an unknown path to /app', async () => {
    await page.goto(`${stack.webUrl}/no/such/place`);
    await page.waitForURL(`${stack.webUrl}/app`);
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
  });

  it('shows sample data in demo mode without signing in', async () => {
    const visitor = await stack.browser.newContext(PHONE);
    try {
      const demo = await visitor.newPage();
      demo.setDefaultTimeout(TIMEOUT);
      await demo.goto(stack.webUrl);
      await demo.getByRole('link', { name: 'Get Started Free' }).waitFor();
      await demo.getByRole('button', { name: 'Try the Demo' }).click();
      await demo.waitForURL(`${stack.webUrl}/app`);
      await demo.getByRole('heading', { name: 'Demo Runner' }).waitFor();
      await demo.getByRole('region', { name: "This week's goal" }).getByText('Run 20 km').waitFor();
      await demo.getByText('Demo mode').first().waitFor();
    } finally {
      await visitor.close();
    }
  });
});
