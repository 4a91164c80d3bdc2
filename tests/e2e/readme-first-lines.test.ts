import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDistance } from '../../domain/shared/units.ts';
import { freePort } from '../support/server-process.ts';
import { launchChromium } from './support/chromium.ts';
import { PASSWORD, PHONE, skipTour, uniqueEmail } from './support/journey.ts';
import { realisticRun } from './support/money-journey.ts';

const REPO = resolve(import.meta.dirname, '../..');
/** A build on two busy cores, then PGlite and the migrations: generous, never asserted. */
const START_TIMEOUT_MS = 180_000;

/** The shell command of the README's first code block that starts the product (`npm start`), and its comment. */
function readmeStartLine(readme: string): { command: string; comment: string } {
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no ```sh code block');
  const line = block.split('\n').find((l) => /\bnpm start\b/.test(l));
  if (!line) throw new Error('the first code block of README.md does not run npm start');
  const [command = '', comment = ''] = line.split('#');
  return { command: command.trim(), comment: comment.trim() };
}

/** A zone where the run (started minutes ago) sits well inside this week: not the first hour of a Monday. */
function zoneAwayFromWeekStart(now: Date): string {
  for (const zone of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles']) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: 'numeric', hour12: false })
        .formatToParts(now)
        .map((p) => [p.type, p.value]),
    );
    if (!(parts.weekday === 'Mon' && Number(parts.hour) % 24 < 1)) return zone;
  }
  return 'UTC';
}

/**
 * Issue 26, item 13: the README's first lines, run as a newcomer runs them, in a fresh copy of the repository (a
 * `git clone` of the committed tree, with this checkout's node_modules linked in: `npm install` would add nothing
 * but minutes) on the embedded database in a temporary DATA_DIR, with PORT set to a free port other than 3001. The
 * README promises the web app on WEB_PORT and the API on PORT, and that PORT alone moves the API: a runner signs up
 * (the mailed link read from GET /dev/mail on PORT, as the README says), sets a goal through the wizard, logs a run,
 * and sees it in the run history, counted toward the goal; no request of the page goes to port 3001. WEB_PORT is set
 * too, to a free port, only because this machine runs other servers: the web app's own address is all it knows.
 */
describe('the README first lines: npm start with PORT changed works end to end', () => {
  let dir = '';
  let server: ChildProcess | null = null;
  let output = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // Ports the system found free (never 3001: it hands out ephemeral ports), chosen in beforeAll.
  let apiPort = 0;
  let webPort = 0;
  let webUrl = '';
  let apiUrl = '';
  const requested: string[] = [];
  const email = uniqueEmail('Readme Runner');
  /** The confirmation link of the mail: the one address on PORT the page opens (the API's verify, as mailed). */
  let mailedLink = '';

  const waitFor = async (url: string, deadline: number) => {
    while (Date.now() < deadline) {
      if (server?.exitCode !== null) throw new Error(`npm start exited (${server?.exitCode}):\n${output}`);
      try {
        if ((await fetch(url)).ok) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`${url} did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
  };

  beforeAll(async () => {
    apiPort = await freePort();
    webPort = await freePort();
    expect(apiPort).not.toBe(3001);
    webUrl = `http://localhost:${webPort}`;
    apiUrl = `http://localhost:${apiPort}`;
    dir = mkdtempSync(join(tmpdir(), 'stridestake-readme-'));
    const copy = join(dir, 'repo');
    execFileSync('git', ['clone', '--quiet', REPO, copy]);
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
    const { command } = readmeStartLine(readFileSync(join(copy, 'README.md'), 'utf8'));
    // `npm install && npm start`: the install is the linked node_modules; the rest runs as written.
    const start = command
      .split('&&')
      .map((part) => part.trim())
      .filter((part) => part !== 'npm install')
      .join(' && ');
    expect(start).toBe('npm start');
    // A newcomer's shell: none of the test runner's variables (NODE_ENV=test would make a development build).
    server = spawn('sh', ['-c', start], {
      cwd: copy,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? dir,
        PORT: String(apiPort),
        WEB_PORT: String(webPort),
        DATA_DIR: join(dir, 'data'),
      },
    });
    server.stdout?.on('data', (d) => (output += d));
    server.stderr?.on('data', (d) => (output += d));
    const deadline = Date.now() + START_TIMEOUT_MS;
    await waitFor(`${apiUrl}/health`, deadline);
    await waitFor(`${webUrl}/`, deadline);

    browser = await launchChromium();
    const zone = zoneAwayFromWeekStart(new Date());
    context = await browser.newContext({ ...PHONE, timezoneId: zone });
    await context.addInitScript(skipTour);
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('request', (request) => requested.push(request.url()));
  }, START_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.pid && server.exitCode === null) {
      const exited = new Promise((done) => server?.once('exit', done));
      // npm, its shell and the server share the group started above.
      process.kill(-server.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('the first lines say where npm start serves the web app and the API, and which variable moves each', () => {
    const { comment } = readmeStartLine(readFileSync(join(REPO, 'README.md'), 'utf8'));
    expect(comment).toContain('web app on http://localhost:5173 (WEB_PORT)');
    expect(comment).toContain('API on http://localhost:3001 (PORT)');
  });

  it('signs up with the mailed link from GET /dev/mail on PORT, and lands on the dashboard', async () => {
    await page.goto(`${webUrl}/signup`);
    await page.getByLabel('Display name').fill('Readme Runner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    const mailbox = (await (await fetch(`${apiUrl}/dev/mail?to=${encodeURIComponent(email)}`)).json()) as {
      mail: { links: string[] }[];
    };
    mailedLink = mailbox.mail[0]?.links[0] ?? '';
    expect(mailedLink.startsWith(`${apiUrl}/auth/v1/verify?`)).toBe(true);
    await page.goto(mailedLink);
    await page.waitForURL((url) => url.origin === webUrl && url.pathname === '/app' && !url.hash);
    await page.getByRole('heading', { name: 'Readme Runner' }).waitFor();
  });

  it('sets a first goal through the wizard and logs a run, then sees it in the history, counted toward the goal', async () => {
    await page.getByRole('link', { name: 'Set a Goal' }).click();
    await page.getByRole('button', { name: 'Create Your First Goal' }).click();
    await page.getByLabel('Target (km)').fill('10');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'Add a Stake' }).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'Choose a Charity' }).getByRole('button', { name: 'Create Goal' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // The run as the GPS tracker's save sends it, from the page, to the API where the web app finds it.
    await page.goto(`${webUrl}/run-history`);
    const saved = await page.evaluate(
      async ({ body }) => {
        const session = JSON.parse(localStorage.getItem('stridestake.auth') ?? 'null') as { access_token: string };
        const response = await fetch('/api/runs', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
          body: JSON.stringify(body),
        });
        return { status: response.status, text: await response.text() };
      },
      { body: realisticRun(new Date(Date.now() - 12 * 60_000).toISOString(), 1.2) },
    );
    expect(saved.status, saved.text).toBe(201);
    const distanceKm = (JSON.parse(saved.text) as { data: { distance_km: number } }).data.distance_km;

    await page.reload();
    const row = page.locator('.run-row').first();
    await row.getByText(formatDistance(distanceKm, 'km')).first().waitFor();
    await row.getByText('toward your goal', { exact: false }).waitFor();
    expect(await page.locator('.run-row').count()).toBe(1);

    // Every API call of the page went to the web app's own origin; none to the default port.
    expect(requested.some((url) => url.startsWith(`${webUrl}/api/`))).toBe(true);
    expect(requested.filter((url) => new URL(url).port === '3001')).toEqual([]);
    expect(
      requested.filter((url) => !url.startsWith(`${webUrl}/`) && url !== mailedLink && !url.startsWith('data:')),
    ).toEqual([]);
  });
});
