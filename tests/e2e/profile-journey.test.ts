import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inAppOnlyPushSender } from '../../app-server/adapters/push/push-sender.ts';
import { deliverNotification } from '../../app-server/commands/notifications/deliver.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { apiFromPage, screenshot, signedInUser } from './support/journey.ts';

describe('journey: a runner sets up their profile', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let userId = '';
  let realtimeRefused = 0;

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ context, page, userId } = await signedInUser(stack, 'Cleo Settings'));
    // No realtime stream for this runner: notifications must arrive by the app's own 30 s poll.
    await context.route('**/realtime?**', (route) => {
      realtimeRefused++;
      return route.abort();
    });
    await context.clock.install();
    await page.goto(`${stack.webUrl}/profile`);
    await page.getByRole('heading', { name: 'Cleo Settings' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('saves the notification settings; without a Web Push key there is no device push to turn on', async () => {
    await page.getByRole('button', { name: 'Notification Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Notification Settings' });
    const midweek = dialog.getByRole('switch', { name: /Mid-week update/ });
    await midweek.waitFor();
    expect(await midweek.isChecked()).toBe(true);
    await midweek.uncheck();
    expect(await dialog.getByLabel('Mid-week update time').isDisabled()).toBe(true);
    await dialog.getByLabel('Ending soon reminder time').fill('08:30');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('button', { name: 'Saved!' }).waitFor();
    const saved = await apiFromPage(page, stack.apiUrl, 'GET', '/me/notification-preferences');
    expect(saved.json).toMatchObject({
      data: { midweek_update_enabled: false, ending_soon_time: '08:30:00', upcoming_goal_enabled: true },
    });
    expect(await dialog.getByText('Push notifications on this device').count()).toBe(0);
    await screenshot(page, 'profile-notification-settings-saved');
  });

  it('"Send test" makes an in-app notification appear, which opens its screen', async () => {
    const dialog = page.getByRole('dialog', { name: 'Notification Settings' });
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.getByRole('button', { name: 'Test sent!' }).waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    const notification = page.getByRole('region', { name: 'Notifications' }).getByRole('status');
    await notification.getByText('StrideStake test').waitFor();
    expect(await notification.getByText('Notifications are working. See you on your next run!').isVisible()).toBe(true);
    await screenshot(page, 'profile-send-test-notification-appears');
    await notification.getByRole('link', { name: 'Open' }).click();
    await page.waitForURL(`${stack.webUrl}/goals`);
    await notification.waitFor({ state: 'detached' });
  });

  it('a reminder the server delivers shows at the next 30-second check, once', async () => {
    await deliverNotification(
      stack.runtime.database.db,
      inAppOnlyPushSender,
      {
        id: `ending_soon:${userId}:e2e`,
        userId,
        type: 'ending_soon',
        title: 'Your week ends soon',
        message: 'Two days left to reach 20 km.',
        data: { url: '/goals' },
      },
      stack.runtime.clock.now(),
    );
    const notifications = page.getByRole('region', { name: 'Notifications' });
    // The app did try its realtime stream, and was refused: only the poll can bring the reminder.
    expect(realtimeRefused).toBeGreaterThan(0);
    await page.clock.fastForward(30_000);
    await notifications.getByText('Your week ends soon').waitFor();
    await screenshot(page, 'profile-reminder-by-30s-poll');
    await notifications.getByRole('button', { name: 'Dismiss notification' }).click();
    await page.clock.fastForward(30_000);
    await page.clock.fastForward(30_000);
    expect(await notifications.getByText('Your week ends soon').count()).toBe(0);
  });

  it('the push service worker shows a Web Push message as a notification', async () => {
    // The push service's side (delivery to this browser) is Chromium's own, reached through the DevTools protocol.
    await context.grantPermissions(['notifications'], { origin: stack.webUrl });
    const cdp = await context.newCDPSession(page);
    // The app scope's registration once its worker is activated: a push to a worker still installing is lost.
    const activated = new Promise<string>((resolve) => {
      const scopes = new Map<string, string>();
      const active = new Set<string>();
      const check = () => {
        for (const id of active) if (scopes.get(id) === `${stack.webUrl}/`) resolve(id);
      };
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        for (const r of registrations) if (!r.isDeleted) scopes.set(r.registrationId, r.scopeURL);
        check();
      });
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        for (const v of versions) if (v.status === 'activated') active.add(v.registrationId);
        check();
      });
    });
    await cdp.send('ServiceWorker.enable');
    // The app's one worker (offline shell and push, web/src/sw.ts), as the app registers it.
    await page.evaluate("navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)");
    const message = {
      title: 'Goal starts tomorrow',
      body: 'Run 20 km this week.',
      data: { type: 'upcoming_goal', url: '/goals' },
    };
    const registrationId = await activated;
    const shown = () =>
      page.evaluate(
        'navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) => list.map((n) => ({ title: n.title, body: n.body, data: n.data })))',
      ) as Promise<unknown[]>;
    // A push service redelivers what a busy browser did not take; so does this test, at most three times, and the
    // worker must show each delivery as the message (a loaded CI machine can leave the first one unanswered).
    let list: unknown[] = [];
    for (let attempt = 1; attempt <= 3 && list.length === 0; attempt++) {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: stack.webUrl,
        registrationId,
        data: JSON.stringify(message),
      });
      const deadline = Date.now() + 7_000;
      while (list.length === 0 && Date.now() < deadline) {
        list = await shown();
        if (list.length === 0) await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(list.length).toBeGreaterThan(0);
    for (const notification of list) expect(notification).toEqual(message);
    await cdp.detach();
  });

  it('switches the distance unit to miles', async () => {
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: /Distance unit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Distance Unit' });
    await dialog.getByRole('button', { name: 'Miles' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: /Distance unit/ })
      .getByText('mi', { exact: true })
      .waitFor();
    const saved = await apiFromPage(page, stack.apiUrl, 'GET', '/me/preferences');
    expect(saved.json).toMatchObject({ data: { distance_unit: 'mi' } });
  });

  it('changes the timezone, refusing a save that changes nothing', async () => {
    await page.getByRole('button', { name: /Timezone/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Timezone' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'No changes to save' }).waitFor();
    await dialog.getByLabel('Your timezone').selectOption({ label: 'Pacific' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: /Timezone/ })
      .getByText('America/Los_Angeles')
      .waitFor();
    const me = await apiFromPage(page, stack.apiUrl, 'GET', '/auth/me');
    expect(me.json).toMatchObject({ user: { timezone: 'America/Los_Angeles' } });
    await screenshot(page, 'profile-unit-and-timezone');
  });
});
