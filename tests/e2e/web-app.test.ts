import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { skipTour } from './support/journey.ts';
import { fillLocalCard } from './support/local-card.ts';

/** A phone-sized window: the app is mobile-first. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 };
const TIMEOUT = 15_000;

/** Calls the API from inside the page with the signed-in user's token, as the app itself would. */
async function apiFromPage(page: Page, apiUrl: string, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ apiUrl, method, path, body }) => {
      const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { access_token: string };
      const response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as unknown };
    },
    { apiUrl, method, path, body },
  );
}

/** A run of about 1.1 km in 6 minutes, ten minutes ago, as the GPS tracker would post it. */
function gpsRun() {
  const start = Date.now() - 10 * 60_000;
  const positions = Array.from({ length: 11 }, (_, i) => ({
    latitude: 51.5 + i * 0.001,
    longitude: -0.12,
    timestamp: start + i * 36_000,
  }));
  return {
    started_at: new Date(start).toISOString(),
    distance_km: 1.11,
    duration_sec: 360,
    source: 'gps',
    gps_data: { positions },
  };
}

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

  it('saves notification settings from the profile', async () => {
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Notification Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Notification Settings' });
    const midweek = dialog.getByRole('switch', { name: /Mid-week update/ });
    await midweek.waitFor();
    expect(await midweek.isChecked()).toBe(true);
    await midweek.uncheck();
    await dialog.getByLabel('Ending soon reminder time').fill('08:30');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('button', { name: 'Saved!' }).waitFor();
    const saved = await apiFromPage(page, stack.apiUrl, 'GET', '/me/notification-preferences');
    expect(saved.json).toMatchObject({
      data: { midweek_update_enabled: false, ending_soon_time: '08:30:00', upcoming_goal_enabled: true },
    });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  });

  let inviteCode = '';
  let groupUrl = '';

  it('creates a group whose owner sees the invite code and copies it', async () => {
    expect((await apiFromPage(page, stack.apiUrl, 'POST', '/runs', gpsRun())).status).toBe(201);
    await page.goto(`${stack.webUrl}/groups`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Group' });
    await dialog.getByLabel('Group name').fill('ab');
    await dialog.getByRole('button', { name: 'Create Group' }).click();
    await dialog.getByText('Group name must be at least 3 characters').waitFor();
    await dialog.getByLabel('Group name').fill('Morning Milers');
    await dialog.getByRole('button', { name: 'Create Group' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The new group opens.
    await page.waitForURL(/\/groups\/[^/]+$/);
    await page.getByRole('heading', { name: 'Morning Milers' }).waitFor();
    groupUrl = page.url();
    inviteCode = (await page.locator('.invite-code').textContent()) ?? '';
    expect(inviteCode).toMatch(/^[A-Z0-9]{8}$/);
    await user.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.webUrl });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.getByRole('region', { name: 'Members' }).getByText('Owner').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Leave Group' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'This Week' }).waitFor();
    await page.getByRole('region', { name: 'Team challenges' }).getByText('Ada Runner').waitFor();
  });

  it('lets a second user join by code and react to the owner’s run card', async () => {
    const friend = await stack.browser.newContext(PHONE);
    // The tour was covered above; this user goes straight to groups.
    await friend.addInitScript(skipTour);
    try {
      const p2 = await friend.newPage();
      p2.setDefaultTimeout(TIMEOUT);
      const email2 = `e2e-friend-${process.pid}@example.com`;
      await p2.goto(`${stack.webUrl}/signup`);
      await p2.getByLabel('Display name').fill('Bo Buddy');
      await p2.getByLabel('Email').fill(email2);
      await p2.getByLabel('Password').fill(password);
      await p2.getByRole('button', { name: 'Create Account' }).click();
      await p2.getByRole('heading', { name: 'Check Your Email' }).waitFor();
      const mailbox = await fetch(`${stack.apiUrl}/dev/mail?to=${encodeURIComponent(email2)}`);
      const { mail } = (await mailbox.json()) as { mail: { links: string[] }[] };
      await fetch(mail[0]!.links[0]!, { redirect: 'manual' });
      await p2.goto(`${stack.webUrl}/login`);
      await p2.getByLabel('Email').fill(email2);
      await p2.getByLabel('Password').fill(password);
      await p2.getByRole('button', { name: 'Sign In' }).click();
      await p2.waitForURL(`${stack.webUrl}/app`);

      await p2.getByRole('link', { name: 'Groups' }).click();
      await p2.getByRole('button', { name: 'Join', exact: true }).click();
      const join = p2.getByRole('dialog', { name: 'Join Group' });
      await join.getByLabel('Invite code').fill('abc');
      await join.getByRole('button', { name: 'Join Group' }).click();
      await join.getByText('Invite code must be 8 characters').waitFor();
      await join.getByLabel('Invite code').fill(` ${inviteCode.toLowerCase()} `);
      await join.getByRole('button', { name: 'Join Group' }).click();
      await join.waitFor({ state: 'detached' });
      await p2.goto(groupUrl);
      await p2.getByRole('heading', { name: 'Morning Milers' }).waitFor();
      expect(await p2.locator('.invite-code').count()).toBe(0);
      await p2.getByRole('button', { name: 'Leave Group' }).waitFor();

      const card = p2.locator('.feed-item', { hasText: 'Ada Runner completed a run' });
      await card.getByRole('button', { name: 'Fire: 0' }).click();
      await card.getByRole('button', { name: 'Fire: 1', pressed: true }).waitFor();
      await card.getByRole('button', { name: 'Fire: 1' }).click();
      await card.getByRole('button', { name: 'Fire: 0', pressed: false }).waitFor();
      await card.getByRole('button', { name: 'Clap: 0' }).click();
      await card.getByRole('button', { name: 'Clap: 1' }).waitFor();
    } finally {
      await friend.close();
    }
    // The owner sees the friend's reaction on the same card.
    await page.reload();
    await page
      .locator('.feed-item', { hasText: 'Ada Runner completed a run' })
      .getByRole('button', { name: 'Clap: 1' })
      .waitFor();
  });

  it('takes a staked goal through the card step with the local gateway’s test card to the charity step', async () => {
    await page.goto(`${stack.webUrl}/goals`);
    await page.getByRole('button', { name: 'Plan Next Week' }).click();
    await page.getByLabel('Target (km)').fill('15');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('dialog', { name: 'Add a Stake' }).getByRole('button', { name: '$10', exact: true }).click();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('dialog', { name: 'Confirm Your Stake' }).waitFor();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    const payment = page.getByRole('dialog', { name: 'Payment Method' });
    await fillLocalCard(payment, '4000 0000 0000 0002');
    await payment.getByRole('button', { name: 'Save Card' }).click();
    // The local gateway refuses Stripe's declining test card as Stripe does, with Stripe's message.
    await payment.getByText('Your card was declined.').waitFor();
    await fillLocalCard(payment, '4242 4242 4242 4242');
    await payment.getByRole('button', { name: 'Save Card' }).click();
    await page.getByRole('dialog', { name: 'Choose a Charity' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('dialog', { name: 'Payment Method' }).waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
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
