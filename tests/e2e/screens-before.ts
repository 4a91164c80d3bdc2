import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { launchChromium } from './support/chromium.ts';
import { emitTrack, installFakeGps, parkRun, trackedRunBody } from './support/fake-gps.ts';
import { skipTour } from './support/journey.ts';
import { fillLocalCard } from './support/local-card.ts';

/*
 * The "before" half of the issue's "screenshots at 390×844 of every route and modal, before and after": the web app
 * as it was at BEFORE (the last commit before the web polish commit 9734d45; web/ is the same up to 9734d45's parent).
 * A git worktree of that commit gets its own `npm install`, then its own `npm start` (web build, the API on PGlite in
 * a scratch data dir, the built web app on its own port), and Debian's chromium photographs every route of the spec's
 * route table and every modal it can open, mostly in the app's demo mode (landing page → Try the Demo). What demo
 * mode cannot show (it has no groups, no goal statistics and no badge to celebrate) is shot for a real account made
 * on that commit's server. Shots go to docs/screens/before/<name>.png, named as tests/e2e/screens-tour.test.ts names
 * the same screen of today's app ("after", tests/e2e/artifacts/screens), so the pairs match by file name; the table
 * in docs/screens/README.md is written from this run. The worktree and every process started here go at the end,
 * also on failure or Ctrl-C.
 *
 *   npm run screens:before
 */

const BEFORE = 'b5b775c';
const REPO = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(REPO, 'docs/screens/before');
const README = resolve(REPO, 'docs/screens/README.md');
const PHONE = { width: 390, height: 844 };
/** A full-page shot heavier than this is taken again as the phone's screen only. */
const MAX_PNG_BYTES = 400_000;
/** The demo runs at the moment the screens tour runs at: a Thursday noon in New York. */
const THURSDAY = '2026-11-26T17:00:00.000Z';
const FIX_EVERY_SEC = 3;
/** The demo's goal is 20 km with 13.3 km run by Thursday: this tracked run completes it, as the tour's run does. */
const TRACK = parkRun({ km: 7.2, paceSecPerKm: 330, everySec: FIX_EVERY_SEC });
const PASSWORD = 'correct horse battery';
const TIMEOUT = 15_000;

const CONTEXT: BrowserContextOptions = {
  viewport: PHONE,
  deviceScaleFactor: 1,
  timezoneId: 'America/New_York',
  locale: 'en-US',
};

/** The little of the page's DOM read here (tests are type-checked without the DOM's types). */
interface PageDocument {
  querySelector(selectors: string): unknown;
  querySelectorAll(selectors: string): ArrayLike<{ readonly textContent: string | null }>;
  readonly documentElement: { readonly scrollHeight: number };
}

/** Where a shot's screen came from, for the README's table. */
type Source = 'visitor' | 'demo' | 'account';
interface Shot {
  readonly name: string;
  readonly screen: string;
  readonly source: Source;
  readonly bytes: number;
  readonly fullPage: boolean;
}

/** Screens of today's tour with no counterpart at BEFORE, and why (written to the README). */
const NOT_REACHED: readonly (readonly [string, string])[] = [
  [
    'phone-run-detail, phone-run-detail-track-from-server, phone-run-detail-strava',
    'there is no run detail screen at b5b775c: run history rows are not links (the /runs/:id screen came with 9734d45)',
  ],
  [
    'modal-run-saved-scrolled',
    'the run-saved dialog at b5b775c is three figures and Done, nothing to scroll (no map or splits)',
  ],
  [
    'phone-connected-apps-connected, phone-run-history-with-strava',
    'connecting Strava needs a Strava application (and the tour’s Strava stand-in); demo mode answers Connect with an error',
  ],
  ['modal-notification-settings-keyboard', 'a keyboard-focus check of today’s tour, not a screen of its own'],
  ['desktop-*', 'the issue asks for 390×844; the tour’s 1280×800 shots have no before'],
];

// ---------------------------------------------------------------------------------------------------------------
// Processes: each one started here is remembered until it exits, and its whole process group is stopped at the end.

const running = new Set<ChildProcess>();

function startProcess(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string) {
  const out = openSync(log, 'a');
  // Its own process group, so npm's children (sh, vite, node) stop with it.
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', out, out] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

async function runToEnd(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string) {
  const code = await exited(startProcess(command, args, cwd, env, log));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${tail(log)}`);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to each group (the server shuts down gracefully), SIGKILL to what is left after 15 s. */
async function stopAll() {
  const children = [...running];
  for (const child of children) signalGroup(child, 'SIGTERM');
  const all = Promise.all(children.map(exited));
  const timer = new Promise((done) => setTimeout(done, 15_000).unref());
  if ((await Promise.race([all.then(() => 'done'), timer])) !== 'done') {
    for (const child of children) signalGroup(child, 'SIGKILL');
    await all;
  }
}

function tail(log: string, lines = 40): string {
  try {
    return readFileSync(log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Waits for `url` to answer 200 while `child` runs. */
async function answering(url: string, child: ChildProcess, log: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`npm start at ${BEFORE} stopped (exit ${child.exitCode ?? child.signalCode}):\n${tail(log)}`);
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${tail(log)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The old product: worktree, install, npm start.

interface OldProduct {
  readonly webUrl: string;
  readonly apiUrl: string;
}

async function startOldProduct(worktree: string, scratch: string): Promise<OldProduct> {
  const log = join(scratch, 'before.log');
  console.log(`worktree of ${BEFORE} in ${worktree}`);
  execFileSync('git', ['worktree', 'add', '--detach', worktree, BEFORE], { cwd: REPO, stdio: 'ignore' });
  console.log('npm install (log: %s)', log);
  await runToEnd('npm', ['install', '--no-audit', '--no-fund'], worktree, process.env, log);

  const [apiPort, webPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Nothing of this machine's own configuration: embedded PGlite, development mailbox, local payment gateway.
  for (const key of Object.keys(env)) {
    if (/^(DATABASE_|EVENTSTORE_|SMTP_|STRIPE_|STRAVA_|FIREBASE_|SENTRY_|AUTH_|PAYMENTS_|VITE_)/.test(key))
      delete env[key];
  }
  Object.assign(env, {
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    WEB_PORT: String(webPort),
    DATA_DIR: join(scratch, 'data'),
    PUBLIC_URL: apiUrl,
    APP_URL: webUrl,
    // Read by `npm run web:build` inside `npm start`: the API address baked into the old web app.
    VITE_API_URL: apiUrl,
    LOG_LEVEL: 'warn',
  });
  console.log(`npm start (web build, API on ${apiUrl}, web app on ${webUrl})`);
  const server = startProcess('npm', ['start'], worktree, env, log);
  await answering(`${apiUrl}/health`, server, log, 300_000);
  await answering(`${webUrl}/`, server, log, 60_000);
  return { webUrl, apiUrl };
}

// ---------------------------------------------------------------------------------------------------------------
// Accounts on the old server (for what demo mode cannot show).

interface Account {
  readonly session: unknown;
  readonly token: string;
}

async function json(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Sign-up, the mailed confirmation link from the development mailbox, then a password sign-in. */
async function makeAccount(apiUrl: string, displayName: string): Promise<Account> {
  const email = `${displayName.toLowerCase().replace(/\W+/g, '-')}-${process.pid}@example.com`;
  const post = (path: string, body: unknown) =>
    fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(json);
  await post('/auth/v1/signup', {
    email,
    password: PASSWORD,
    data: { display_name: displayName, timezone: 'America/New_York' },
  });
  const { mail } = (await fetch(`${apiUrl}/dev/mail?to=${encodeURIComponent(email)}`).then(json)) as {
    mail: { links: string[] }[];
  };
  const link = mail[0]?.links[0];
  if (!link) throw new Error(`no confirmation mail for ${email}`);
  await fetch(link, { redirect: 'manual' });
  const session = (await post('/auth/v1/token?grant_type=password', { email, password: PASSWORD })) as {
    access_token: string;
  };
  return { session, token: session.access_token };
}

async function callApi(apiUrl: string, account: Account, method: string, path: string, body?: unknown) {
  return fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(json);
}

// ---------------------------------------------------------------------------------------------------------------
// Shooting.

const shots: Shot[] = [];

/** Waits until the screen has loaded what it shows: no spinner, no skeleton, no "Loading…" (as the tour does). */
async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      !(globalThis as unknown as { document: PageDocument }).document.querySelector('.spinner, [aria-busy="true"]') &&
      !Array.from((globalThis as unknown as { document: PageDocument }).document.querySelectorAll('p, span')).some(
        (e) => e.textContent?.trim() === 'Loading…',
      ),
    undefined,
    { timeout: TIMEOUT },
  );
  // A frame for the last answers to paint (and any transition to finish).
  await page.waitForTimeout(350);
}

/**
 * docs/screens/before/<name>.png. Routes are shot whole as the tour shoots them: the window is made as tall as the
 * page, so the fixed bottom navigation sits at the page's end (over 400 KB, the phone's screen only); dialogs are
 * shot as the phone's screen shows them.
 */
async function shoot(page: Page, name: string, screen: string, source: Source, options: { fullPage?: boolean } = {}) {
  await settled(page);
  const path = join(SHOTS, `${name}.png`);
  let fullPage = options.fullPage ?? true;
  if (fullPage) {
    const height = await page.evaluate(
      () => (globalThis as unknown as { document: PageDocument }).document.documentElement.scrollHeight,
    );
    await page.setViewportSize({ width: PHONE.width, height: Math.max(PHONE.height, height) });
    await page.waitForTimeout(150);
    await page.screenshot({ path, animations: 'disabled' });
    await page.setViewportSize(PHONE);
    if (statSync(path).size > MAX_PNG_BYTES) {
      fullPage = false;
      await page.waitForTimeout(150);
    }
  }
  if (!fullPage) await page.screenshot({ path, animations: 'disabled' });
  const bytes = statSync(path).size;
  shots.push({ name, screen, source, bytes, fullPage });
  console.log(`  ${name}.png  ${Math.round(bytes / 1024)} KB${fullPage ? ' (full page)' : ''}`);
}

async function newPage(browser: Browser, init?: (context: BrowserContext) => Promise<void>) {
  const context = await browser.newContext(CONTEXT);
  await init?.(context);
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  return { context, page };
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

/** Closes the celebration dialogs the dashboard shows, one after the other. */
async function closeCelebrations(page: Page) {
  const celebration = page.getByRole('dialog', { name: /^(Goal Complete!|Badge Earned!)$/ });
  while (
    await celebration
      .waitFor({ timeout: 2_500 })
      .then(() => true)
      .catch(() => false)
  ) {
    await celebration.getByRole('button', { name: 'Awesome!' }).click();
    await page.waitForTimeout(300);
  }
}

/** Landing, sign-in, sign-up and the legal pages, for a visitor. */
async function publicPages(browser: Browser, webUrl: string) {
  const { context, page } = await newPage(browser);
  try {
    for (const [path, name, screen, ready] of [
      ['/', 'landing', 'Landing page', page.getByRole('link', { name: 'Get Started Free' })],
      ['/login', 'login', 'Sign in', page.getByRole('button', { name: 'Sign In' })],
      ['/signup', 'signup', 'Sign up', page.getByRole('button', { name: 'Create Account' })],
      ['/terms', 'terms', 'Terms of service', page.getByRole('heading', { level: 1 })],
      ['/privacy', 'privacy', 'Privacy policy', page.getByRole('heading', { level: 1 })],
      ['/data-deletion', 'data-deletion', 'Data deletion', page.getByRole('heading', { level: 1 })],
    ] as const) {
      await page.goto(`${webUrl}${path}`);
      await ready.first().waitFor();
      await shoot(page, `phone-${name}`, `${screen} (${path})`, 'visitor');
    }
  } finally {
    await context.close();
  }
}

/** Everything demo mode shows: entered from the landing page's Try the Demo, as a visitor would. */
async function demoTour(browser: Browser, webUrl: string) {
  const { context, page } = await newPage(browser, async (c) => {
    await c.clock.install({ time: new Date(THURSDAY) });
    await installFakeGps(c, TRACK[0]!);
  });
  const visit = async (path: string, ready: Locator) => {
    await page.goto(`${webUrl}${path}`);
    await ready.first().waitFor();
  };
  try {
    await page.goto(`${webUrl}/`);
    await page.getByRole('button', { name: 'Try the Demo' }).click();
    await page.waitForURL(`${webUrl}/app`);

    // Dashboard: the onboarding tour about a second after the first load, then the home screen.
    for (const [i, title] of [
      'Welcome',
      'Put Money on the Line',
      'Run with Friends',
      'Track Your Progress',
    ].entries()) {
      await dialog(page, title).waitFor();
      await shoot(page, `modal-onboarding-tour-${i + 1}`, `Onboarding tour, slide ${i + 1} (${title})`, 'demo', {
        fullPage: false,
      });
      await page.getByRole('button', { name: i === 3 ? 'Get Started' : 'Next' }).click();
    }
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await closeCelebrations(page);
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
    await shoot(page, 'phone-app', 'Dashboard (/app)', 'demo');
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 1e6));
    await shoot(page, 'phone-app-scrolled-to-end', 'Dashboard scrolled to the end (run button over the feed)', 'demo', {
      fullPage: false,
    });

    // Run: the tracker, a tracked run that completes the week's goal, its summary, then the goal celebration.
    await visit('/run', page.getByRole('button', { name: 'Start Run' }));
    await shoot(page, 'phone-run', 'Run tracker (/run)', 'demo');
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    await emitTrack(page, TRACK, FIX_EVERY_SEC);
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    await shoot(page, 'phone-run-tracking', 'Run tracker while tracking', 'demo');
    await page.getByRole('button', { name: 'Stop Run' }).click();
    await dialog(page, 'Stop tracking?').waitFor();
    await shoot(page, 'modal-stop-tracking', 'Stop tracking? confirmation', 'demo', { fullPage: false });
    await dialog(page, 'Stop tracking?').getByRole('button', { name: 'Stop & Save' }).click();
    const summary = dialog(page, /^(Run saved!|Goal complete!)$/);
    await summary.waitFor();
    // The confetti after a run lasts 4 s; the summary is shot once it has gone.
    await page.clock.fastForward(5_000);
    await page.getByTestId('confetti').waitFor({ state: 'detached' });
    await shoot(page, 'modal-run-saved', 'Run summary after saving (this run completes the goal)', 'demo', {
      fullPage: false,
    });
    await summary.getByRole('button', { name: 'Done' }).click();
    await visit('/app', page.getByRole('region', { name: "This week's goal" }));
    await dialog(page, 'Goal Complete!').waitFor();
    await page.clock.fastForward(5_000);
    await shoot(page, 'modal-celebration-goal', 'Goal Complete! celebration on the dashboard', 'demo', {
      fullPage: false,
    });
    await closeCelebrations(page);

    await visit('/run-history', page.getByText('GPS', { exact: true }));
    await shoot(page, 'phone-run-history', 'Run history (/run-history)', 'demo');
    await visit('/xp-guide', page.getByRole('heading', { name: 'Tiers' }));
    await shoot(page, 'phone-xp-guide', 'XP guide (/xp-guide)', 'demo');

    // Goals: the wizard step by step to a staked goal for next week (charity step included), then the cancel dialog.
    await visit('/goals', page.getByRole('button', { name: 'Plan Next Week' }));
    await shoot(page, 'phone-goals', 'Goals (/goals)', 'demo');
    await page.getByRole('button', { name: 'Plan Next Week' }).click();
    await dialog(page, 'Set Your Goal').waitFor();
    await page.getByLabel('Target (km)').fill('15');
    await shoot(page, 'modal-wizard-1-goal', 'Goal wizard 1: goal', 'demo', { fullPage: false });
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog(page, 'Add a Stake').getByRole('button', { name: '$10', exact: true }).click();
    await shoot(page, 'modal-wizard-2-stake', 'Goal wizard 2: stake', 'demo', { fullPage: false });
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog(page, 'Confirm Your Stake').waitFor();
    await shoot(page, 'modal-wizard-3-confirm-stake', 'Goal wizard 3: confirm the stake', 'demo', { fullPage: false });
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog(page, 'Payment Method').getByLabel('Card number').waitFor();
    await shoot(page, 'modal-wizard-4-payment', 'Goal wizard 4: payment method', 'demo', { fullPage: false });
    await fillLocalCard(dialog(page, 'Payment Method'), '4242 4242 4242 4242');
    await dialog(page, 'Payment Method').getByRole('button', { name: 'Save Card' }).click();
    const charity = dialog(page, 'Choose a Charity');
    await charity.getByRole('button', { name: 'Create Goal' }).waitFor();
    await shoot(page, 'modal-wizard-5-charity', 'Goal wizard 5: charity', 'demo', { fullPage: false });
    await charity.getByRole('button', { name: /Girls on the Run/ }).click();
    await shoot(page, 'modal-wizard-5-charity-chosen', 'Goal wizard 5: charity chosen', 'demo', { fullPage: false });
    await charity.getByRole('button', { name: 'Create Goal' }).click();
    await charity.waitFor({ state: 'detached' });
    const upcoming = page.getByRole('region', { name: 'Upcoming goal' });
    await upcoming.waitFor();
    await shoot(page, 'phone-goals-with-upcoming', 'Goals with the upcoming staked goal', 'demo');
    await upcoming.getByRole('button', { name: 'Cancel' }).click();
    await dialog(page, 'Cancel upcoming goal?').waitFor();
    await shoot(page, 'modal-cancel-goal', 'Cancel upcoming goal? confirmation', 'demo', { fullPage: false });
    await dialog(page, 'Cancel upcoming goal?').getByRole('button', { name: 'Keep Goal' }).click();

    // Groups: demo mode has none; the list's empty state and its two dialogs.
    await visit('/groups', page.getByRole('heading', { name: 'No groups yet' }));
    await shoot(page, 'phone-groups-empty', 'Groups, none yet (/groups)', 'demo');
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await dialog(page, 'Join Group').waitFor();
    await shoot(page, 'modal-join-group', 'Join Group dialog', 'demo', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog(page, 'Create Group').getByLabel('Group name').fill('Sunrise Striders');
    await shoot(page, 'modal-create-group', 'Create Group dialog', 'demo', { fullPage: false });
    await page.keyboard.press('Escape');

    // Profile: both tabs and the settings dialogs.
    await visit('/profile', page.getByRole('heading', { name: 'Demo Runner' }));
    await shoot(page, 'phone-profile', 'Profile, Badges tab (/profile)', 'demo');
    await visit('/profile?tab=stakes', page.getByRole('tab', { name: 'Stakes', selected: true }));
    await shoot(page, 'phone-profile-stakes', 'Profile, Stakes tab (/profile?tab=stakes)', 'demo');
    for (const [button, title, name] of [
      ['Notification Settings', 'Notification Settings', 'notification-settings'],
      ['Distance unit', 'Distance Unit', 'distance-unit'],
      ['Timezone', 'Timezone', 'timezone'],
      ['How It Works', 'How It Works', 'how-it-works'],
    ] as const) {
      await page.getByRole('button', { name: new RegExp(`^${button}`) }).click();
      await dialog(page, title).waitFor();
      await shoot(page, `modal-${name}`, `${title} dialog`, 'demo', { fullPage: false });
      await page.keyboard.press('Escape');
      await dialog(page, title).waitFor({ state: 'detached' });
    }

    await visit('/connected-apps', page.getByRole('heading', { name: 'Strava' }));
    await shoot(page, 'phone-connected-apps', 'Connected apps (/connected-apps)', 'demo');
  } finally {
    await context.close();
  }
}

/**
 * What demo mode cannot show, for a real account on the old server: the goal statistics (demo answers none), the
 * badge celebration (demo badges are all celebrated), and a group with a friend (demo has no groups).
 */
async function accountTour(browser: Browser, { webUrl, apiUrl }: OldProduct) {
  const riley = await makeAccount(apiUrl, 'Riley Runner');
  const now = Date.now();
  // A goal of 10.5 km this week with 9.6 km of it run today, as the tour's runner has.
  const goal = (await callApi(apiUrl, riley, 'POST', '/goals', { type: 'distance', target_value: 10.5 })) as {
    data: { id: string };
  };
  await callApi(apiUrl, riley, 'POST', '/runs', trackedRunBody(now - 4 * 3_600_000, 4, 320));
  await callApi(apiUrl, riley, 'POST', '/runs', trackedRunBody(now - 2 * 3_600_000, 5.6, 320));

  const { context, page } = await newPage(browser, async (c) => {
    await c.addInitScript(skipTour);
    await c.addInitScript(
      ({ session }) => {
        if (localStorage.getItem('screens.session-seeded')) return;
        localStorage.setItem('screens.session-seeded', 'true');
        localStorage.setItem('stridestake.auth', session);
      },
      { session: JSON.stringify(riley.session) },
    );
  });
  const visit = async (path: string, ready: Locator) => {
    await page.goto(`${webUrl}${path}`);
    await ready.first().waitFor();
  };
  try {
    await visit('/app', page.getByRole('region', { name: "This week's goal" }));
    // The badges the runs earned are awarded by the server's workers; the newest is celebrated on the dashboard.
    const badge = dialog(page, 'Badge Earned!');
    for (let attempt = 0; attempt < 5; attempt++) {
      if (
        await badge
          .waitFor({ timeout: 3_000 })
          .then(() => true)
          .catch(() => false)
      )
        break;
      await page.reload();
    }
    if (await badge.isVisible()) {
      await page.waitForTimeout(3_500);
      await shoot(page, 'modal-celebration-badge', 'Badge Earned! celebration on the dashboard', 'account', {
        fullPage: false,
      });
      await closeCelebrations(page);
    } else console.log('  (no badge celebration appeared: modal-celebration-badge not shot)');

    await visit(`/goals/${goal.data.id}/stats`, page.getByText('Average pace'));
    await shoot(page, 'phone-goal-stats', 'Goal statistics (/goals/:id/stats)', 'account');

    // A group made in the app; a friend joins with its code and runs 5 km.
    await visit('/groups', page.getByRole('heading', { name: 'No groups yet' }));
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog(page, 'Create Group').getByLabel('Group name').fill('Sunrise Striders');
    await dialog(page, 'Create Group').getByRole('button', { name: 'Create Group' }).click();
    await dialog(page, 'Create Group').waitFor({ state: 'detached' });
    const { groups } = (await callApi(apiUrl, riley, 'GET', '/groups')) as { groups: { id: string }[] };
    const groupId = groups[0]!.id;
    const detail = (await callApi(apiUrl, riley, 'GET', `/groups/${groupId}`)) as { data: { invite_code: string } };
    const sam = await makeAccount(apiUrl, 'Sam Sprinter');
    await callApi(apiUrl, sam, 'POST', '/groups/join', { invite_code: detail.data.invite_code });
    await callApi(apiUrl, sam, 'POST', '/runs', trackedRunBody(now - 3 * 3_600_000, 5, 300));

    await visit('/groups', page.getByRole('link', { name: /Sunrise Striders/ }));
    await shoot(page, 'phone-groups', 'Groups (/groups)', 'account');
    const challenges = page.getByRole('region', { name: 'Team challenges' });
    await visit(`/groups/${groupId}`, challenges.getByText('Sam Sprinter'));
    await shoot(page, 'phone-group-detail', 'Group detail: members, leaderboard, challenges, feed', 'account');
    await page.getByRole('tab', { name: 'Best Pace' }).click();
    // The whole challenge card in the middle of the phone's screen, clear of the bottom navigation.
    await challenges.evaluate((card) =>
      (card as unknown as { scrollIntoView(options: { block: string }): void }).scrollIntoView({ block: 'center' }),
    );
    await shoot(page, 'phone-group-challenges-best-pace', 'Group detail, Best Pace challenge tab', 'account', {
      fullPage: false,
    });
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// README.

const SOURCES: Record<Source, string> = {
  visitor: 'signed out',
  demo: 'demo mode',
  account: 'account',
};

function writeReadme() {
  const rows = [...shots]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(
      (s) =>
        `| [${s.name}.png](before/${s.name}.png) | ${s.screen} | ${SOURCES[s.source]} | ${
          s.fullPage ? 'whole page' : '390×844'
        } |`,
    );
  const text = `# Screens: before and after the web polish

Screenshots of every route of the spec's route table (\`../shared/spec/product-spec.md\` §2) and of the dialogs
they open, at 390×844 (device scale 1), for the issue "Screenshots at 390×844 of every route and modal, before and
after".

- **before/** is the web app at commit \`${BEFORE}\`, the last commit before the web polish commit \`9734d45\` (the
  commits between them do not touch \`web/\`). \`npm run screens:before\` (\`tests/e2e/screens-before.ts\`) makes a git
  worktree of \`${BEFORE}\`, runs its \`npm install\` and \`npm start\` (the web build, the API on PGlite in a scratch
  folder, the web app on its own port), and photographs the app with Debian's chromium in **demo mode**, entered from
  the landing page's "Try the Demo" with the page's clock at Thursday 26 November 2026, noon in New York (the
  moment the screens tour uses). Demo mode at \`${BEFORE}\` has no groups, no goal statistics and no badge left to
  celebrate, so those screens (source "account" below) are of a real account made on that commit's server: a runner
  with a 10.5 km goal and 9.6 km run, and a group with a friend who ran 5 km. The script removes its worktree and
  stops everything it started when it ends; run it again to refresh this folder.
- **after** shots are not kept here: \`tests/e2e/screens-tour.test.ts\` saves today's screens to
  \`tests/e2e/artifacts/screens/<name>.png\` (git-ignored) on every test run. A before shot has the same file name
  as the after shot of the same screen. Routes are shot as whole pages (a shot over 400 KB as the phone's screen
  only), dialogs as the phone's screen shows them.

## Before (${shots.length} screens)

| file | screen | source | shot |
| --- | --- | --- | --- |
${rows.join('\n')}

## After shots without a before

| after | why |
| --- | --- |
${NOT_REACHED.map(([names, why]) => `| ${names} | ${why} |`).join('\n')}
`;
  writeFileSync(README, text);
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'stridestake-screens-before-'));
  const worktree = join(scratch, 'worktree');
  let browser: Browser | null = null;
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    await browser?.close().catch(() => undefined);
    await stopAll();
    try {
      execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: REPO, stdio: 'ignore' });
    } catch {
      // Not made, or already gone: prune forgets a worktree whose folder was removed.
      execFileSync('git', ['worktree', 'prune'], { cwd: REPO, stdio: 'ignore' });
    }
    rmSync(scratch, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const product = await startOldProduct(worktree, scratch);
    browser = await launchChromium();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    console.log('public pages');
    await publicPages(browser, product.webUrl);
    console.log('demo mode');
    await demoTour(browser, product.webUrl);
    console.log('account');
    await accountTour(browser, product);
    writeReadme();
    const files = readdirSync(SHOTS).filter((f) => f.endsWith('.png'));
    console.log(`${files.length} screenshots in ${SHOTS}; table in ${README}`);
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
