import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { gpsDistanceKm, type GpsPosition } from '../../../domain/run/geo.ts';
import { cycle } from '../../money/money-fixtures.ts';
import type { E2eStack } from './e2e-stack.ts';
import { skipTour } from './journey.ts';
import { fillLocalCard } from './local-card.ts';

/*
 * Helpers for the money journeys (tests/e2e/money-journeys.test.ts): a runner on a phone whose weeks pass in seconds.
 * The server runs in-process on a ManualClock; the browser's clock is Playwright's, installed before the first page
 * loads. Both are moved together, the way a runner would find the app a few days later.
 */

const REPO = resolve(import.meta.dirname, '../../..');
export const ARTIFACTS = resolve(REPO, 'tests/e2e/artifacts');
export const TIMEOUT = 15_000;
export const PASSWORD = 'correct horse battery';
export const ZONE = 'America/New_York';

/** A new runner's phone: 390×844, New York time, the browser clock at the server's, the tour already seen. */
export async function newPhone(stack: E2eStack): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    timezoneId: ZONE,
  });
  await context.clock.install({ time: stack.runtime.clock.now() });
  // The tour has its own journey test; here it would only cover the money screens.
  await context.addInitScript(skipTour);
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  return { context, page };
}

/** Moves the server's clock and the browser's together (a runner opening the app later). */
export async function moveTime(stack: E2eStack, context: BrowserContext, iso: string): Promise<void> {
  stack.runtime.clock.set(iso);
  await context.clock.setSystemTime(new Date(iso));
}

/**
 * What the server's workers do on their own as time passes, run now: goal activation and week close, holds,
 * releases, settlement and charge retries (tests/money's cycle: sweep lapsed holds, catch up, tick).
 */
export const runWorkers = (stack: E2eStack) => cycle(stack.runtime);

/** Signs up through the web app, confirms through the mailed link, signs in; ends on the dashboard. */
export async function signUp(
  page: Page,
  stack: E2eStack,
  name: string,
  email: string,
  landsOn = '/app',
): Promise<void> {
  await page.goto(`${stack.webUrl}/signup`);
  await page.getByLabel('Display name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
  const mailbox = await fetch(`${stack.apiUrl}/dev/mail?to=${encodeURIComponent(email)}`);
  const { mail } = (await mailbox.json()) as { mail: { links: string[] }[] };
  const confirmed = await fetch(mail[0]!.links[0]!, { redirect: 'manual' });
  if (confirmed.status !== 303) throw new Error(`confirmation link answered ${confirmed.status}`);
  await page.getByRole('link', { name: 'Go to Sign In' }).click();
  // Exact: the 'Check Your Email' panel is labelled by its heading and may still be on screen for a moment.
  await page.waitForURL(`${stack.webUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${stack.webUrl}${landsOn}`);
}

/**
 * Opens a page of the app as the runner would, and waits until its auth client holds a fresh session (after days
 * away it refreshes the expired access token first).
 */
export async function openApp(page: Page, stack: E2eStack, path: string): Promise<void> {
  await page.goto(`${stack.webUrl}${path}`);
  await page
    .waitForFunction(() => {
      const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { expires_at?: number } | null;
      return !!session?.expires_at && session.expires_at * 1000 > Date.now() + 60_000;
    })
    .catch(async (error: unknown) => {
      const state = await page.evaluate(() => ({
        now: new Date().toISOString(),
        expiresAt: (JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { expires_at?: number } | null)
          ?.expires_at,
      }));
      throw new Error(`no fresh session on ${page.url()}: ${JSON.stringify(state)}`, { cause: error });
    });
}

/**
 * A run as a phone records it: a 1.2 km loop in a park run at about 5:30/km, a fix every 3 s with 5 m accuracy and
 * a little GPS wobble. The distance is the track's own, as the server recomputes it.
 */
export function realisticRun(startedAt: string, km: number) {
  const secPerKm = 330;
  const stepSec = 3;
  const fixes = Math.round((km * secPerKm) / stepSec) + 1;
  const loopKm = 1.2;
  const radiusKm = loopKm / (2 * Math.PI);
  const kmPerDegLat = 111.19;
  const kmPerDegLon = kmPerDegLat * Math.cos((40.78 * Math.PI) / 180);
  const t0 = Date.parse(startedAt);
  // Each outing starts somewhere else on the loop and wobbles its own way: two recordings of the same loop are
  // never the same track (the run policy counts a resubmitted track once).
  const phase = (t0 / 60_000) % 997;
  const positions: GpsPosition[] = Array.from({ length: fixes }, (_, i) => {
    const covered = (i * stepSec) / secPerKm;
    const angle = (covered / loopKm) * 2 * Math.PI + phase;
    const wobbleKm = 0.0015 * Math.sin(i * 1.7 + phase);
    return {
      latitude: 40.78 + ((radiusKm + wobbleKm) * Math.sin(angle)) / kmPerDegLat,
      longitude: -73.965 + ((radiusKm + wobbleKm) * Math.cos(angle)) / kmPerDegLon,
      timestamp: t0 + i * stepSec * 1000,
      accuracy: 5,
    };
  });
  return {
    started_at: startedAt,
    distance_km: gpsDistanceKm(positions),
    duration_sec: (fixes - 1) * stepSec,
    source: 'gps',
    gps_data: { positions },
  };
}

/**
 * Logs a run as the signed-in runner: the app is opened first (its auth client refreshes the session after days
 * away), then POST /runs goes out from the page with the runner's own token, as the GPS tracker's save does.
 */
export async function logRun(page: Page, stack: E2eStack, startedAt: string, km: number): Promise<void> {
  await openApp(page, stack, '/run-history');
  const status = await page.evaluate(
    async ({ apiUrl, body }) => {
      const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { access_token: string };
      const response = await fetch(`${apiUrl}/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
        body: JSON.stringify(body),
      });
      return response.status === 201 ? 201 : `${response.status} ${await response.text()}`;
    },
    { apiUrl: stack.apiUrl, body: realisticRun(startedAt, km) },
  );
  if (status !== 201) throw new Error(`POST /runs: ${status}`);
}

/** Closes the celebrations that pop up on the dashboard one after another (badges earned on the way). */
export async function closeCelebrations(page: Page): Promise<void> {
  const awesome = page.getByRole('button', { name: 'Awesome!' });
  for (;;) {
    const shown = await awesome
      .waitFor({ timeout: 2_500 })
      .then(() => true)
      .catch(() => false);
    if (!shown) return;
    // The next pop-up has a button of the same name: wait for this one to go, not for the name to disappear.
    const button = await awesome.elementHandle();
    await button?.click();
    await button?.waitForElementState('hidden');
  }
}

/**
 * A screenshot under tests/e2e/artifacts/ (git-ignored): the whole page, or the phone's screen scrolled to `focus`
 * (a full-page shot would put the fixed bottom bar over whatever sits at the first screen's bottom edge).
 */
export async function screenshot(page: Page, name: string, focus?: Locator): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Centred, so the fixed bottom bar does not cover it.
  if (focus) await focus.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`), fullPage: !focus });
}

/** `npm run audit:stakes` against a database: PGlite under `DATA_DIR` or PostgreSQL at `DATABASE_URL`. */
export function auditStakesCli(database: { DATA_DIR: string } | { DATABASE_URL: string }) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), NODE_ENV: 'test' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  Object.assign(env, database);
  return spawnSync('npm', ['run', '--silent', 'audit:stakes', '--', '--format', 'json'], {
    cwd: REPO,
    env,
    encoding: 'utf8',
  });
}

/**
 * Creates this week's staked run-count goal through the goal form: $10 on a Mastercard typed into the local card
 * form, for Against Malaria Foundation. Ends when the form has closed.
 */
export async function createStakedRunGoal(page: Page, stack: E2eStack, runs: number): Promise<void> {
  await openApp(page, stack, '/goals');
  await page.getByRole('button', { name: 'Create Your First Goal' }).click();
  await page.getByRole('button', { name: /Number of runs/ }).click();
  await page.getByLabel('Target (runs)').fill(String(runs));
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByRole('dialog', { name: 'Add a Stake' }).getByRole('button', { name: '$10', exact: true }).click();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByRole('dialog', { name: 'Confirm Your Stake' }).waitFor();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  const payment = page.getByRole('dialog', { name: 'Payment Method' });
  await fillLocalCard(payment, '5555 5555 5555 4444');
  await payment.getByRole('button', { name: 'Save Card' }).click();
  const charity = page.getByRole('dialog', { name: 'Choose a Charity' });
  await charity.getByRole('button', { name: /Against Malaria Foundation/ }).click();
  await charity.getByRole('button', { name: 'Create Goal' }).click();
  await charity.waitFor({ state: 'detached' });
}
