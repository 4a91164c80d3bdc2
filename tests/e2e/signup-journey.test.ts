import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { PASSWORD, mailedConfirmation, phonePage, screenshot, uniqueEmail } from './support/journey.ts';

/** Safari on an iPhone: the web app on a phone, where the app stores are one tap away. */
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

describe('journey: a new runner signs up, confirms by e-mail and sets a first goal', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  const email = uniqueEmail('Ada Runner');

  /** Fills and sends the sign-up form. */
  const signUp = async (p: Page, name: string, address: string, password: string) => {
    await p.getByLabel('Display name').fill(name);
    await p.getByLabel('Email').fill(address);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Create Account' }).click();
  };

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ context, page } = await phonePage(stack.browser, { tourSeen: false, context: { userAgent: IPHONE_SAFARI } }));
    // The page's clock runs as the wall clock does; the toast journey below holds it still for a moment.
    await context.clock.install();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('on a phone, the landing page offers the app stores; the prompt, once closed, stays closed', async () => {
    await page.goto(stack.webUrl);
    const prompt = page.getByRole('complementary', { name: 'Get the app' });
    await prompt.waitFor();
    expect(await prompt.getByRole('link', { name: 'App Store' }).getAttribute('href')).toMatch(
      /^https:\/\/apps\.apple\.com\//,
    );
    expect(await prompt.getByRole('link', { name: 'Google Play' }).getAttribute('href')).toBe(
      'https://play.google.com/store/apps/details?id=app.stridestake',
    );
    await screenshot(page, 'mobile-web-app-store-prompt');
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('link', { name: 'Get Started Free' }).first().waitFor();
    expect(await prompt.count()).toBe(0);
  });

  it('signs up, sees Check Your Email with code entry, and the mailed link signs in on the dashboard', async () => {
    await page.getByRole('link', { name: 'Get Started Free' }).first().click();
    await signUp(page, 'Ada Runner', email, 'short');
    await page.getByText('Password too short').first().waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.getByText('Click the confirmation link, or enter the code from the email below.').waitFor();
    const code = page.getByLabel('Confirmation code');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Confirm Email' }).click();
    await page.getByRole('alert').filter({ hasText: 'Token has expired or is invalid' }).waitFor();
    await code.fill('');
    await screenshot(page, 'signup-check-your-email-with-code-entry');

    const { link } = await mailedConfirmation(stack, email);
    await page.goto(link);
    // The link confirms, then lands on /app with the session in the fragment, which the app takes and clears.
    await page.waitForURL((url) => url.pathname === '/app' && !url.hash.includes('access_token'));
    await page.getByRole('heading', { name: 'Ada Runner' }).waitFor();
    await page.getByText('No activity yet').waitFor();
  });

  it('takes the tour and sets a first goal through the wizard, shown on the dashboard at 0%', async () => {
    await page.getByRole('dialog', { name: 'Welcome' }).waitFor();
    for (let slide = 0; slide < 3; slide++) await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Set a Goal' }).click();
    await page.getByRole('button', { name: 'Create Your First Goal' }).click();
    await page.getByLabel('Target (km)').fill('20');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'Add a Stake' }).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'Choose a Charity' }).getByRole('button', { name: 'Create Goal' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Home' }).click();
    const card = page.getByRole('region', { name: "This week's goal" });
    await card.getByText('Run 20 km').waitFor();
    expect(await card.getByText('0%').isVisible()).toBe(true);
    expect(await card.getByText("Let's get started!").isVisible()).toBe(true);
    await screenshot(page, 'signup-first-goal-on-dashboard');
  });

  it('gives a signed-in runner on the landing page a way into the app', async () => {
    await page.goto(stack.webUrl);
    const into = page.getByRole('link', { name: 'Go to Your Dashboard' });
    await into.waitFor();
    expect(await page.getByRole('link', { name: 'Get Started Free' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Open App' }).isVisible()).toBe(true);
    await screenshot(page, 'landing-signed-in-way-into-app');
    await into.click();
    await page.waitForURL(`${stack.webUrl}/app`);
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
  });

  it('clears a failed sign-in’s toast as soon as the next sign-in succeeds', async () => {
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${stack.webUrl}/`);
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    const failure = page.locator('.toast-error', { hasText: 'Sign in failed' });
    await failure.waitFor();
    await screenshot(page, 'signin-failed-toast');

    // Time stands still on the page, so the toast cannot simply have timed out (it would after 5 s). The pause is
    // set 200 ms ahead of the page's time read here: on a busy machine the page's clock moved on by more than the 1 ms
    // once allowed before pauseAt ran, and pauseAt refuses a time in the past.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 200);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${stack.webUrl}/app`);
    await failure.waitFor({ state: 'detached', timeout: 3_000 });
    await page.clock.resume();
    await page.getByRole('heading', { name: 'Ada Runner' }).waitFor();
    await screenshot(page, 'signin-success-toast-cleared');
  });

  it('confirms another account with the code from the e-mail instead of the link', async () => {
    const other = await phonePage(stack.browser);
    try {
      const address = uniqueEmail('Bo Coder');
      await other.page.goto(`${stack.webUrl}/signup`);
      await signUp(other.page, 'Bo Coder', address, PASSWORD);
      await other.page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
      const { code } = await mailedConfirmation(stack, address);
      expect(code).toMatch(/^\d{6}$/);
      await other.page.getByLabel('Confirmation code').fill(code);
      await other.page.getByRole('button', { name: 'Confirm Email' }).click();
      await other.page.waitForURL(`${stack.webUrl}/app`);
      await other.page.getByRole('heading', { name: 'Bo Coder' }).waitFor();
    } finally {
      await other.context.close();
    }
  });
});
