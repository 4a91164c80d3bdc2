import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient, lastCode } from '../api/auth-helpers.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { PASSWORD, mailedConfirmation, phonePage, screenshot, uniqueEmail } from './support/journey.ts';

/**
 * A newcomer's first hour, without a rough edge: the screens a new runner meets in the first hour (accounts, goals,
 * groups), each rough edge asserted on screen.
 */
describe('first hour screens', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** Signs up through the auth API, as the sign-up form does; the account stays unconfirmed. */
  const unconfirmedUser = async (name: string) => {
    const email = uniqueEmail(name);
    const signup = await authClient(stack.runtime)('POST', '/auth/v1/signup', {
      body: { email, password: PASSWORD, data: { display_name: name, timezone: 'America/New_York' } },
    });
    expect(signup.status).toBe(200);
    return email;
  };

  const signIn = async (page: Page, email: string, password: string) => {
    await page.goto(`${stack.webUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  };

  it('accounts: forgot password, resend and code entry after "Email not confirmed", a friendly wait, and Check Your Email as the heading', async () => {
    const { context, page } = await phonePage(stack.browser);

    // Signing up twice at once: the wait in a friendly sentence, never GoTrue's raw one.
    const email = uniqueEmail('Rae Newcomer');
    await page.goto(`${stack.webUrl}/signup`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Display name').fill('Rae Newcomer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    // While the panel shows, its heading replaces "Create your account"; Confirm Email is the primary button.
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Create your account' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Check Your Email' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Confirm Email' }).getAttribute('class')).toContain('primary');
    expect(await page.getByRole('link', { name: 'Go to Sign In' }).getAttribute('class')).toContain('secondary');
    await screenshot(page, 'first-hour-check-your-email');
    await page.getByRole('button', { name: 'Try a Different Email' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByRole('button', { name: 'Create Account' }).click();
    const wait = page
      .getByRole('alert')
      .filter({ hasText: /Please wait \d+ seconds? before asking for another email\./ });
    await wait.first().waitFor();
    expect(await page.getByText('For security purposes').count()).toBe(0);
    await screenshot(page, 'first-hour-signup-again-wait');

    // An unconfirmed runner who left the sign-up page: "Email not confirmed" offers the mail again and the code.
    await signIn(page, email, PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'Email not confirmed' }).first().waitFor();
    const panel = page.getByRole('region', { name: 'Confirm your email' });
    await panel.getByRole('button', { name: 'Resend confirmation email' }).click();
    // Within the minute the wait is said in the friendly sentence; a minute later the mail goes out.
    await panel.getByText(/Please wait \d+ seconds? before asking for another email\./).waitFor();
    stack.runtime.clock.advance(61_000);
    await panel.getByRole('button', { name: 'Resend confirmation email' }).click();
    await panel.getByText(`We sent a new confirmation email to ${email}.`).waitFor();
    await screenshot(page, 'first-hour-email-not-confirmed');
    await panel.getByLabel('Confirmation code').fill(await lastCode(stack.runtime, email));
    await panel.getByRole('button', { name: 'Confirm Email' }).click();
    await page.waitForURL((url) => url.pathname === '/app');
    await page.getByRole('heading', { name: 'Rae Newcomer' }).waitFor();
    await context.close();

    // Forgot password: link on /login → e-mail → check your email → the mailed link → Set a new password → signed in.
    const other = await phonePage(stack.browser);
    const forgetful = await unconfirmedUser('Fen Forgetful');
    const verify = await authClient(stack.runtime)('POST', '/auth/v1/verify', {
      body: { type: 'signup', email: forgetful, token: await lastCode(stack.runtime, forgetful) },
    });
    expect(verify.status).toBe(200);
    await other.page.goto(`${stack.webUrl}/login`);
    await other.page.getByRole('link', { name: 'Forgot password?' }).click();
    await other.page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await other.page.getByLabel('Email').fill(forgetful);
    await other.page.getByRole('button', { name: 'Send Reset Link' }).click();
    await other.page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const { link } = await mailedConfirmation(stack, forgetful);
    await other.page.goto(link);
    await other.page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await other.page.getByLabel('New password').fill('a brand new secret');
    await screenshot(other.page, 'first-hour-set-new-password');
    await other.page.getByRole('button', { name: 'Set New Password' }).click();
    await other.page.waitForURL((url) => url.pathname === '/app');
    await other.page.getByRole('heading', { name: 'Fen Forgetful' }).waitFor();
    // The new password signs in from now on.
    const signInNew = await authClient(stack.runtime)('POST', '/auth/v1/token?grant_type=password', {
      body: { email: forgetful, password: 'a brand new secret' },
    });
    expect(signInNew.status).toBe(200);
    await other.context.close();
  });
});
