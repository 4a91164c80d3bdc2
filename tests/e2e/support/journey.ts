import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { authClient, lastCode } from '../../api/auth-helpers.ts';
import type { E2eStack } from './e2e-stack.ts';

/** A phone-sized window with the app's default zone: the app is mobile-first (§2). */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  timezoneId: 'America/New_York',
  locale: 'en-US',
};

/** How long a journey waits for something to show before failing. */
export const TIMEOUT = 15_000;

export const PASSWORD = 'correct horse battery';

const ARTIFACTS = resolve(import.meta.dirname, '../artifacts');

/**
 * Saves what the user sees to tests/e2e/artifacts/<name>.png (git-ignored), for the journey's report; `show` is
 * scrolled into view first when it is further down the page.
 */
export async function screenshot(page: Page, name: string, show?: Locator): Promise<void> {
  await show?.scrollIntoViewIfNeeded();
  mkdirSync(ARTIFACTS, { recursive: true });
  // Finite animations (a dialog rising, confetti) are shown finished, so the picture is of the settled screen.
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), animations: 'disabled' });
}

/**
 * An init script that marks the onboarding tour seen for whoever is signed in on the page, and for whoever signs in
 * later on it: the flag is the user's own (`stridestake.user.<id>.tour-seen`, web/src/lib/storage.ts), so it is set
 * when the session is stored (a demo visitor's too), and the namespace is registered as the app does, so sign-out
 * clears it.
 */
export function skipTour(): void {
  const mark = () => {
    try {
      const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as {
        user?: { id?: string };
      } | null;
      // A demo visitor (no session) has the namespace 'demo'.
      const id = session?.user?.id ?? 'demo';
      if (localStorage.getItem(`stridestake.user.${id}.tour-seen`) !== null) return;
      const known = JSON.parse(localStorage.getItem('stridestake.user-namespaces') ?? '[]') as string[];
      if (!known.includes(id)) localStorage.setItem('stridestake.user-namespaces', JSON.stringify([...known, id]));
      localStorage.setItem(`stridestake.user.${id}.tour-seen`, 'true');
    } catch {
      // An unreadable session: the tour shows, as it would.
    }
  };
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
    setItem.call(this, key, value);
    if (key === 'stridestake.auth') mark();
  };
  mark();
}

/** A fresh phone-sized browser context and page; `tourSeen` skips the onboarding tour (covered by its own journey). */
export async function phonePage(
  browser: Browser,
  options: { tourSeen?: boolean; context?: BrowserContextOptions } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, ...options.context });
  if (options.tourSeen ?? true) await context.addInitScript(skipTour);
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  return { context, page };
}

let users = 0;

/** A unique address per user and test process, so journeys of parallel files never meet. */
export function uniqueEmail(name: string): string {
  users += 1;
  return `${name.toLowerCase().replace(/\W+/g, '-')}-${users}-${process.pid}@example.com`;
}

/** The confirmation link and code of the newest mail to `email` in the development mailbox (GET /dev/mail). */
export async function mailedConfirmation(stack: E2eStack, email: string): Promise<{ link: string; code: string }> {
  const response = await fetch(`${stack.apiUrl}/dev/mail?to=${encodeURIComponent(email)}`);
  const { mail } = (await response.json()) as { mail: { text: string; links: string[] }[] };
  const newest = mail[0];
  if (!newest?.links[0]) throw new Error(`No confirmation mail for ${email}`);
  return { link: newest.links[0], code: /code: (\d{6})/.exec(newest.text)?.[1] ?? '' };
}

/**
 * A confirmed user signed in in a new browser context, made through the auth API (sign-up, mailed code, verify) the
 * way the sign-up journey does it in the browser; the session goes where the web app keeps it. For journeys that
 * start after sign-up.
 */
export async function signedInUser(
  stack: E2eStack,
  displayName: string,
  options: { tourSeen?: boolean; context?: BrowserContextOptions } = {},
): Promise<{ context: BrowserContext; page: Page; email: string; userId: string }> {
  const email = uniqueEmail(displayName);
  const call = authClient(stack.runtime);
  const signup = await call('POST', '/auth/v1/signup', {
    body: { email, password: PASSWORD, data: { display_name: displayName, timezone: 'America/New_York' } },
  });
  if (signup.status !== 200) throw new Error(`sign-up failed: ${signup.text}`);
  const verify = await call('POST', '/auth/v1/verify', {
    body: { type: 'signup', email, token: await lastCode(stack.runtime, email) },
  });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.text}`);
  const session = JSON.stringify(verify.body);
  const { context, page } = await phonePage(stack.browser, options);
  // Once per context: after a sign-out the app must stay signed out across reloads.
  await context.addInitScript((value) => {
    if (localStorage.getItem('e2e.session-seeded')) return;
    localStorage.setItem('e2e.session-seeded', 'true');
    localStorage.setItem('stridestake.auth', value);
  }, session);
  return { context, page, email, userId: (verify.body as { user: { id: string } }).user.id };
}

/** Calls the API from inside the page with the signed-in user's token, as the app itself would. */
export async function apiFromPage(page: Page, apiUrl: string, method: string, path: string, body?: unknown) {
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

/** Signs in on /login with e-mail and password, as a returning runner does, and waits for the dashboard. */
export async function signInWithPassword(page: Page, webUrl: string, email: string, password = PASSWORD) {
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${webUrl}/app`);
}

/** Signs out from the profile's Sign Out button and waits for the landing page. */
export async function signOutFromProfile(page: Page, webUrl: string) {
  await page.goto(`${webUrl}/profile`);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL(`${webUrl}/`);
}
