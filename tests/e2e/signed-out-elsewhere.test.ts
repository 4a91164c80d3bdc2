import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import {
  apiFromPage,
  PASSWORD,
  screenshot,
  signedInUser,
  signInWithPassword,
  signOutFromProfile,
  skipTour,
  TIMEOUT,
} from './support/journey.ts';

const SIGNED_OUT_ELSEWHERE = 'You were signed out on another device. Sign in again to continue.';
/** What the bug showed a runner whose session was gone: empty data where the API had answered 401. */
const EMPTY_DATA = ['No active goal', 'Create Your First Goal', '0 weeks', 'No activity yet'];
/** What a runner with a goal must never see (a new runner's streak is 0 weeks and their feed empty, truly). */
const NO_GOAL = EMPTY_DATA.slice(0, 2);
const seenOf = (seen: string[], texts: readonly string[]) => seen.filter((text) => texts.includes(text));

/**
 * In the page, from its first script on: every text of `texts` that was ever on screen, however briefly (a frame of
 * "No active goal" before a redirect counts). A script, not a function: the test side has no DOM types.
 */
const watchForEmptyData = (texts: readonly string[]) => `(() => {
  const texts = ${JSON.stringify(texts)};
  const seen = new Set();
  globalThis.__emptyDataSeen = () => [...seen];
  const check = () => {
    const body = document.body ? document.body.innerText : '';
    for (const text of texts) if (body.includes(text)) seen.add(text);
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

const emptyDataSeen = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __emptyDataSeen: () => string[] }).__emptyDataSeen());

describe('journey: signed out on the desktop, the phone says so instead of showing nothing at stake', () => {
  let stack: E2eStack;
  let phone: { context: BrowserContext; page: Page; email: string };
  let desktop: BrowserContext;

  beforeAll(async () => {
    stack = await startE2eStack();
    phone = await signedInUser(stack, 'Pat Phone');
    await phone.context.addInitScript(watchForEmptyData(EMPTY_DATA));
    // Something at stake this week: a 10 km goal.
    await phone.page.goto(`${stack.webUrl}/app`);
    const goal = await apiFromPage(phone.page, stack.apiUrl, 'POST', '/goals', { type: 'distance', target_value: 10 });
    expect(goal.status).toBe(201);
    desktop = await stack.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await desktop.addInitScript(skipTour);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** The same runner signs in on the desktop and taps Sign Out there: every session of the account ends. */
  const signOutOnTheDesktop = async () => {
    const desk = await desktop.newPage();
    desk.setDefaultTimeout(TIMEOUT);
    await signInWithPassword(desk, stack.webUrl, phone.email);
    await signOutFromProfile(desk, stack.webUrl);
    return desk;
  };

  it('an access token the auth service renews is sent again: no sign-out, the goal shows', async () => {
    const { page } = phone;
    // The stored access token is refused by the API (not a token it signed), the refresh token is good: a 401 that
    // only means "renew", as an expired token does.
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { access_token: string };
      localStorage.setItem('stridestake.auth', JSON.stringify({ ...session, access_token: 'not-a-token' }));
    });
    await page.reload();
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
    expect(page.url()).toBe(`${stack.webUrl}/app`);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null'));
    expect(stored.access_token).not.toBe('not-a-token');
    expect(seenOf(await emptyDataSeen(page), NO_GOAL)).toEqual([]);
  });

  it('the auth service out of reach is no sign-out either: the read fails as such, never as "no goal"', {
    timeout: 120_000,
  }, async () => {
    const { page, context } = phone;
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { access_token: string };
      localStorage.setItem('stridestake.auth', JSON.stringify({ ...session, access_token: 'not-a-token' }));
    });
    await context.route('**/auth/v1/token**', (route) => route.abort('internetdisconnected'));
    try {
      await page.reload();
      // The auth client tries the refresh again for up to 30 s (its own back-off); the goal is loading meanwhile.
      await page.getByRole('alert').filter({ hasText: 'Couldn’t load your goal' }).waitFor({ timeout: 60_000 });
      expect(page.url()).toBe(`${stack.webUrl}/app`);
      expect(await page.getByText(SIGNED_OUT_ELSEWHERE).count()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem('stridestake.auth'))).not.toBeNull();
      expect(seenOf(await emptyDataSeen(page), NO_GOAL)).toEqual([]);
    } finally {
      await context.unroute('**/auth/v1/token**');
    }
    // Reachable again (the client waits a minute before it tries a refused refresh token again; a reload is a new
    // client): the session is renewed and the goal is back.
    await page.reload();
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
  });

  it('"Sign Out" on the desktop signs the phone out: opened again, it goes to sign in and says why', async () => {
    const { page } = phone;
    await page.reload();
    await page.getByRole('region', { name: "This week's goal" }).waitFor();

    // The phone's app is closed meanwhile: open, its live-update stream could hear the sign-out and sign the phone
    // out before the reload below, and a page load in between would lose the sentence (it lives in the page). The
    // screen open through the sign-out is the next test's case.
    await page.goto('about:blank');
    const desk = await signOutOnTheDesktop();
    // The desktop signed itself out by its own hand: no "another device" sentence there.
    expect(await desk.getByText(SIGNED_OUT_ELSEWHERE).count()).toBe(0);

    // Opened again: the phone's access token has not expired, so only the API can tell the session is gone. The app
    // asks, goes to sign in and says why.
    await page.goto(`${stack.webUrl}/app`);
    await page.waitForURL(`${stack.webUrl}/`);
    await page.getByText(SIGNED_OUT_ELSEWHERE).waitFor();
    await screenshot(page, 'signed-out-elsewhere-phone');
    expect(await emptyDataSeen(page)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('stridestake.auth'))).toBeNull();
    // Nothing of the runner's is left to show: the query cache went with the session (the next screen asks again).
    expect(await page.getByText('Pat Phone').count()).toBe(0);

    // The sentence stays on the way to the sign-in form, and goes once signed in again.
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.waitForURL(`${stack.webUrl}/login`);
    await page.getByText(SIGNED_OUT_ELSEWHERE).waitFor();
    await page.getByLabel('Email').fill(phone.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${stack.webUrl}/app`);
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
    expect(await page.getByText(SIGNED_OUT_ELSEWHERE).count()).toBe(0);
  });

  it('a screen open when the session ends elsewhere: its next request sends the phone to sign in', async () => {
    const { page } = phone;
    await page.goto(`${stack.webUrl}/goals`);
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
    await signOutOnTheDesktop();

    // No reload: the runner taps Refresh on the goals screen they had open. Its live-update stream may have heard the
    // sign-out first and sent the phone to sign in already: then there is no button left to tap, and that is fine.
    await page
      .getByRole('button', { name: 'Refresh' })
      .click({ timeout: 10_000 })
      .catch((error: unknown) => {
        if (page.url() !== `${stack.webUrl}/`) throw error;
      });
    await page.waitForURL(`${stack.webUrl}/`);
    await page.getByText(SIGNED_OUT_ELSEWHERE).waitFor();
    expect(await emptyDataSeen(page)).toEqual([]);
    // And it stays signed out: /app sends it back to `/`.
    await page.goto(`${stack.webUrl}/app`);
    await page.waitForURL(`${stack.webUrl}/`);
  });

  it('the phone opened the next day (its access token expired): the refused refresh says so too', async () => {
    const { page } = phone;
    await signInWithPassword(page, stack.webUrl, phone.email);
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
    // The phone's app is closed overnight (a page of the same origin that runs no app, so its storage can be
    // written): open, its live-update stream could hear the sign-out and sign out before the storage is aged.
    await page.goto(`${stack.webUrl}/favicon.svg`);
    await signOutOnTheDesktop();

    // An hour and more later: the stored access token has expired, so the auth client refreshes before any read.
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { expires_at: number };
      localStorage.setItem(
        'stridestake.auth',
        JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) - 60 }),
      );
    });
    await page.goto(`${stack.webUrl}/app`);
    await page.waitForURL(`${stack.webUrl}/`);
    await page.getByText(SIGNED_OUT_ELSEWHERE).waitFor();
    expect(await emptyDataSeen(page)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('stridestake.auth'))).toBeNull();
  });
});
