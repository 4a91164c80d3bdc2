import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCard } from '../money/money-fixtures.ts';
import { authClient, lastCode } from '../api/auth-helpers.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import {
  PASSWORD,
  apiFromPage,
  mailedConfirmation,
  phonePage,
  screenshot,
  signedInUser,
  uniqueEmail,
} from './support/journey.ts';
import { closeCelebrations, logRun } from './support/money-journey.ts';

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

  it('goals: this week’s completed goal shows once, the active goal card leads to its stats, the upcoming card shows its charity', async () => {
    const { context, page, userId, email } = await signedInUser(stack, 'Gia Goals');
    await page.goto(`${stack.webUrl}/goals`);
    await page.getByRole('heading', { name: 'Goals' }).waitFor();

    // An earlier goal this week, canceled: a past goal.
    const first = await apiFromPage(page, stack.apiUrl, 'POST', '/goals', { type: 'count', target_value: 5 });
    expect(first.status).toBe(201);
    const firstId = (first.json as { data: { id: string } }).data.id;
    expect((await apiFromPage(page, stack.apiUrl, 'PATCH', `/goals/${firstId}`, { status: 'canceled' })).status).toBe(
      200,
    );
    const active = await apiFromPage(page, stack.apiUrl, 'POST', '/goals', { type: 'count', target_value: 1 });
    expect(active.status).toBe(201);
    const activeId = (active.json as { data: { id: string } }).data.id;

    // The active goal's card is a link to its stats.
    await page.reload();
    const card = page.getByRole('region', { name: "This week's goal" });
    await card.getByText('Run 1 time').first().waitFor();
    await card.getByRole('link').first().click();
    await page.waitForURL(`${stack.webUrl}/goals/${activeId}/stats`);
    await screenshot(page, 'first-hour-goal-stats-from-card');

    // Completed this week: on its card, not a second time under Past Goals (which still lists the canceled one).
    await logRun(page, stack, new Date(Date.now() - 90 * 60_000).toISOString(), 3);
    await page.goto(`${stack.webUrl}/goals`);
    await closeCelebrations(page);
    const past = page.getByRole('region', { name: 'Past goals' });
    await past.getByText('Canceled').waitFor();
    await page.getByRole('region', { name: "This week's goal" }).getByText('100%').waitFor();
    expect(await past.locator('li').count()).toBe(1);
    expect(await past.getByText('Completed').count()).toBe(0);
    await screenshot(page, 'first-hour-completed-goal-once');

    // Next week's goal with a stake for a charity: the upcoming card names the charity.
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('stridestake.auth') ?? '{}') as { access_token: string }).access_token,
    );
    const card4242 = await saveCard(stack.runtime, { id: userId, email, token });
    const charities = await apiFromPage(page, stack.apiUrl, 'GET', '/charities');
    const charity = (charities.json as { charities: { id: string; name: string }[] }).charities[0]!;
    const upcoming = await apiFromPage(page, stack.apiUrl, 'POST', '/goals', {
      type: 'count',
      target_value: 2,
      stake_amount_cents: 500,
      payment_method_id: card4242,
      charity_id: charity.id,
      start: 'next_week',
    });
    expect(upcoming.status).toBe(201);
    await page.reload();
    const next = page.getByRole('region', { name: 'Upcoming goal' });
    await next.getByText(`Supporting ${charity.name}`).waitFor();
    await screenshot(page, 'first-hour-upcoming-goal-charity', next);
    await context.close();
  });

  it('groups: creating or joining opens the group, Best Pace ranks only runners with a time, XP on one line with the dashboard’s figure', async () => {
    const owner = await signedInUser(stack, 'Ola Owner');
    await owner.page.goto(`${stack.webUrl}/groups`);
    await owner.page.getByRole('button', { name: 'Create', exact: true }).click();
    const create = owner.page.getByRole('dialog', { name: 'Create Group' });
    await create.getByLabel('Group name').fill('Dawn Patrol');
    await create.getByRole('button', { name: 'Create Group' }).click();
    // The new group opens.
    await owner.page.waitForURL(/\/groups\/[^/]+$/);
    await owner.page.getByRole('heading', { name: 'Dawn Patrol' }).waitFor();
    const groupUrl = owner.page.url();
    const inviteCode = (await owner.page.locator('.invite-code').textContent()) ?? '';

    const friend = await signedInUser(stack, 'Pip Friend');
    await friend.page.goto(`${stack.webUrl}/groups`);
    await friend.page.getByRole('button', { name: 'Join', exact: true }).click();
    const join = friend.page.getByRole('dialog', { name: 'Join Group' });
    await join.getByLabel('Invite code').fill(inviteCode);
    await join.getByRole('button', { name: 'Join Group' }).click();
    // The joined group opens.
    await friend.page.waitForURL(groupUrl);
    await friend.page.getByRole('heading', { name: 'Dawn Patrol' }).waitFor();
    await friend.page.getByRole('button', { name: 'Leave Group' }).waitFor();

    // Nobody has a time: Best Pace ranks nobody.
    const challenges = friend.page.getByRole('region', { name: 'Team challenges' });
    await challenges.getByRole('tab', { name: 'Best Pace' }).click();
    await challenges.locator('li', { hasText: 'Ola Owner' }).waitFor();
    const paces = await challenges.locator('li').allTextContents();
    expect(paces).toHaveLength(2);
    for (const line of paces) {
      expect(line).not.toMatch(/#\d/);
      expect(line).toMatch(/^—/);
    }
    await screenshot(friend.page, 'first-hour-best-pace-no-ranks', challenges);

    // The leaderboard's XP stays on one line.
    const xp = friend.page.getByRole('region', { name: 'Leaderboard' }).locator('.leaderboard-xp').first();
    await xp.waitFor();
    const style = await xp.evaluate((el) => {
      const css = (
        globalThis as unknown as { getComputedStyle(e: unknown): { whiteSpace: string; fontSize: string } }
      ).getComputedStyle(el);
      return {
        whiteSpace: css.whiteSpace,
        fontSize: Number.parseFloat(css.fontSize),
        height: el.getBoundingClientRect().height,
      };
    });
    expect(style.whiteSpace).toBe('nowrap');
    // One line is about 1.2–1.5 font sizes high; two would be over 2.
    expect(style.height).toBeLessThan(style.fontSize * 2);
    await owner.context.close();
    await friend.context.close();

    // The demo: its own runner's XP is the dashboard's figure, with a thousands separator, and so are the friends'.
    const demo = await phonePage(stack.browser);
    await demo.page.goto(stack.webUrl);
    await demo.page.getByRole('button', { name: 'Try the Demo' }).click();
    await demo.page.waitForURL(`${stack.webUrl}/app`);
    await demo.page.getByRole('heading', { name: 'Demo Runner' }).waitFor();
    const dashboardXp = /([\d,]+) XP/.exec((await demo.page.locator('.xp p').textContent()) ?? '')?.[1] ?? '';
    expect(dashboardXp).toMatch(/^\d{1,3}(,\d{3})*$/);
    await demo.page.getByRole('link', { name: 'Groups' }).click();
    await demo.page.getByRole('link', { name: /Sunrise Striders/ }).click();
    const board = demo.page.getByRole('region', { name: 'Leaderboard' });
    await board.locator('li', { hasText: 'Demo Runner' }).waitFor();
    expect(await board.locator('li', { hasText: 'Demo Runner' }).textContent()).toContain(`· ${dashboardXp} XP`);
    expect(await board.locator('li', { hasText: 'Maya Chen' }).textContent()).toContain('4,200 XP');
    await screenshot(demo.page, 'first-hour-demo-leaderboard-xp', board);
    await demo.context.close();
  });
});
