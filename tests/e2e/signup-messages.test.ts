import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';

const TIMEOUT = 15_000;

/** The sign-up form's refusals as a person sees them: the spec's length message, and the server's for the rest. */
describe('sign-up messages in a browser against the real server', () => {
  let stack: E2eStack;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack();
    page = await (await stack.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    page.setDefaultTimeout(TIMEOUT);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  async function submit(displayName: string, password: string) {
    await page.getByLabel('Display name').fill(displayName);
    await page.getByLabel('Email').fill('messages@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
  }

  it("shows 'Password too short' from the form and the server's message for weak passwords", async () => {
    await page.goto(`${stack.webUrl}/signup`);
    await submit('Ada', 'short');
    await page.getByText('Password too short').waitFor();

    await submit('Ada', '          ');
    const blank = 'Password must contain at least one character that is not a space.';
    await page.getByText('Sign up failed').first().waitFor();
    await page.locator('.field-error', { hasText: blank }).waitFor();

    await submit('Ada', 'Password1');
    const common = 'Password is known to be weak and easy to guess, please choose a different one.';
    await page.locator('.field-error', { hasText: common }).waitFor();

    await submit('   ', 'a long and unusual passphrase');
    await page.getByText('Display name is required').waitFor();
    // None of these created an account.
    const mail = await fetch(`${stack.apiUrl}/dev/mail?to=messages%40example.com`);
    expect(((await mail.json()) as { mail: unknown[] }).mail).toEqual([]);

    await submit('Ada', 'a long and unusual passphrase');
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
  });
});
