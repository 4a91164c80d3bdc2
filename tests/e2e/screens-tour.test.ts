import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import axe from 'axe-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStrava, STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET } from '../support/strava-stand-in.ts';
import { settle } from '../support/users.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { emitTrack, type Fix, installFakeGps, parkRun, trackedRunBody } from './support/fake-gps.ts';
import { apiFromPage, phonePage, signedInUser } from './support/journey.ts';
import { fillLocalCard } from './support/local-card.ts';
import { closeCelebrations } from './support/money-journey.ts';

/*
 * Every route of the spec (§2 route table) and every modal, at 390×844 (and the main routes at 1280×800), for a
 * runner with real data: runs tracked with GPS and synced from Strava, a goal this week and a staked one planned for
 * next week, a group with a friend, badges. Each screen is saved to tests/e2e/artifacts/screens/<name>.png
 * (git-ignored) and checked with axe-core; the last test prints the violations per screen and requires no serious
 * or critical one.
 */

const SCREENS = resolve(import.meta.dirname, 'artifacts/screens');
/** A Thursday noon in New York: the week's earlier runs, the goal and the tracked run all sit in one week. */
const THURSDAY = '2026-11-26T17:00:00.000Z';
const DAY = 24 * 60 * 60_000;
const FIX_EVERY_SEC = 3;
const TRACK: Fix[] = parkRun({ km: 1.05, paceSecPerKm: 330, everySec: FIX_EVERY_SEC });
const ATHLETE = 5150;
const DESKTOP = { width: 1280, height: 800 };

/** The little of the page's DOM the tour reads (the tests are type-checked without the DOM's types). */
interface PageDocument {
  querySelector(selectors: string): unknown;
  querySelectorAll(selectors: string): ArrayLike<{ readonly textContent: string | null }>;
  readonly documentElement: { readonly scrollHeight: number };
}

/** axe-core's violations of one screen, by impact. */
interface AxeCount {
  readonly critical: number;
  readonly serious: number;
  readonly moderate: number;
  readonly minor: number;
  readonly rules: readonly string[];
}

describe('screens tour: every route and modal, photographed and checked with axe-core', () => {
  const strava = new FakeStrava();
  const audits = new Map<string, AxeCount>();
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let goalId = '';
  let groupId = '';

  /** Waits until the screen has loaded what it shows: no spinner, no skeleton, no "Loading…". */
  const settled = async (p: Page) => {
    await p.waitForFunction(
      () =>
        !(globalThis as unknown as { document: PageDocument }).document.querySelector('.spinner, [aria-busy="true"]') &&
        !Array.from((globalThis as unknown as { document: PageDocument }).document.querySelectorAll('p, span')).some(
          (e) => e.textContent?.trim() === 'Loading…',
        ),
      undefined,
      { timeout: 15_000 },
    );
    // A frame for the last answers to paint (and any transition to finish).
    await p.waitForTimeout(350);
  };

  /** Runs axe-core on the page as it is and records the violations under `name`. */
  const audit = async (p: Page, name: string) => {
    // Evaluated through the browser's debugging protocol, which the page's CSP does not govern (an inline <script>
    // tag would be refused by it, as it should be).
    await p.evaluate(axe.source);
    const violations = await p.evaluate(async () => {
      const run = (globalThis as unknown as { axe: typeof axe }).axe.run;
      const result = await run((globalThis as unknown as { document: axe.ElementContext }).document, {
        resultTypes: ['violations'],
      });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? 'minor',
        nodes: v.nodes.length,
        first: String(v.nodes[0]?.target[0] ?? ''),
      }));
    });
    const count = (impact: string) => violations.filter((v) => v.impact === impact).length;
    audits.set(name, {
      critical: count('critical'),
      serious: count('serious'),
      moderate: count('moderate'),
      minor: count('minor'),
      rules: violations.map((v) => `${v.id} (${v.impact}, ${v.nodes}: ${v.first})`),
    });
  };

  /**
   * A screenshot to tests/e2e/artifacts/screens/<name>.png and an axe check. Routes are shot whole: the window is
   * made as tall as the page for the shot, so fixed bars sit where they would at the end of the page (a plain
   * full-page shot leaves them over the middle); dialogs are shot as the phone's screen shows them.
   */
  const shoot = async (p: Page, name: string, options: { fullPage?: boolean; show?: Locator } = {}) => {
    await settled(p);
    if (options.show) await options.show.scrollIntoViewIfNeeded();
    mkdirSync(SCREENS, { recursive: true });
    const path = resolve(SCREENS, `${name}.png`);
    const viewport = p.viewportSize()!;
    if (options.fullPage ?? true) {
      const height = await p.evaluate(
        () => (globalThis as unknown as { document: PageDocument }).document.documentElement.scrollHeight,
      );
      await p.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
      await p.waitForTimeout(150);
      await p.screenshot({ path, animations: 'disabled' });
      // Checked as shot: nothing of the page sits under the fixed bars, as when it is scrolled there.
      await audit(p, name);
      await p.setViewportSize(viewport);
    } else {
      await p.screenshot({ path, animations: 'disabled' });
      await audit(p, name);
    }
  };

  const visit = async (path: string, ready: Locator) => {
    await page.goto(`${stack.webUrl}${path}`);
    await ready.waitFor();
  };

  const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });

  beforeAll(async () => {
    await strava.start();
    stack = await startE2eStack({
      now: THURSDAY,
      config: { STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_API_URL: strava.url },
    });
    strava.clock = stack.runtime.clock;
    const now = Date.parse(THURSDAY);
    // The runner's earlier weeks on Strava (outside this week, so this week's goal counts only the runs below).
    for (const [i, days] of [8, 13, 20].entries()) {
      strava.add({
        id: 900 + i,
        athleteId: ATHLETE,
        sportType: 'Run',
        startMs: now - days * DAY,
        distanceM: 6_000 + i * 1_500,
        movingTimeSec: 1_900 + i * 500,
        track: true,
      });
    }

    ({ context, page } = await signedInUser(stack, 'Riley Runner', { tourSeen: false }));
    await context.clock.install({ time: new Date(THURSDAY) });
    await installFakeGps(context, TRACK[0]!);
    await page.goto(`${stack.webUrl}/terms`);
    // A free goal of 10.5 km this week, 9.6 km of it run on Monday and Wednesday (the tracked run completes it).
    const goal = await apiFromPage(page, stack.apiUrl, 'POST', '/goals', { type: 'distance', target_value: 10.5 });
    expect(goal.status).toBe(201);
    goalId = (goal.json as { data: { id: string } }).data.id;
    for (const [start, km] of [
      ['2026-11-23T12:00:00.000Z', 4],
      ['2026-11-25T22:00:00.000Z', 5.6],
    ] as const) {
      const run = await apiFromPage(page, stack.apiUrl, 'POST', '/runs', trackedRunBody(Date.parse(start), km, 320));
      expect(run.status).toBe(201);
    }
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    await strava.stop();
  });

  it('public pages: landing, sign in, sign up and the legal pages', async () => {
    const { context: visitor, page: p } = await phonePage(stack.browser);
    try {
      for (const [path, name, ready] of [
        ['/', 'landing', p.getByRole('link', { name: 'Get Started Free' })],
        ['/login', 'login', p.getByRole('button', { name: 'Sign In' })],
        ['/signup', 'signup', p.getByRole('button', { name: 'Create Account' })],
        ['/terms', 'terms', p.getByRole('heading', { level: 1 })],
        ['/privacy', 'privacy', p.getByRole('heading', { level: 1 })],
        ['/data-deletion', 'data-deletion', p.getByRole('heading', { level: 1 })],
      ] as const) {
        await p.goto(`${stack.webUrl}${path}`);
        await ready.first().waitFor();
        await shoot(p, `phone-${name}`);
      }
      await p.setViewportSize(DESKTOP);
      for (const [path, name] of [
        ['/', 'landing'],
        ['/login', 'login'],
      ] as const) {
        await p.goto(`${stack.webUrl}${path}`);
        await p.getByRole('heading', { level: 1 }).first().waitFor();
        await shoot(p, `desktop-${name}`);
      }
    } finally {
      await visitor.close();
    }
  }, 120_000);

  it('dashboard: the onboarding tour, the badge celebration, then the home screen', async () => {
    await visit('/app', page.getByRole('heading', { name: 'Riley Runner' }));
    for (const [i, title] of [
      'Welcome',
      'Put Money on the Line',
      'Run with Friends',
      'Track Your Progress',
    ].entries()) {
      await dialog(title).waitFor();
      await shoot(page, `modal-onboarding-tour-${i + 1}`, { fullPage: false });
      await page.getByRole('button', { name: i === 3 ? 'Get Started' : 'Next' }).click();
    }
    await dialog('Badge Earned!').waitFor();
    await shoot(page, 'modal-celebration-badge', { fullPage: false });
    await closeCelebrations(page);
    await page.getByRole('region', { name: "This week's goal" }).waitFor();
    await shoot(page, 'phone-app');
    // What the phone's screen shows at the bottom of the page: the floating run button over the feed's end.
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 1e6));
    await shoot(page, 'phone-app-scrolled-to-end', { fullPage: false });
    // Scrolled to the end, the floating run button covers none of the feed's text.
    const fab = (await page.getByRole('link', { name: 'Start a run' }).boundingBox())!;
    for (const line of await page.locator('.feed-item p, .feed-item time').all()) {
      const box = (await line.boundingBox())!;
      const overlaps =
        box.x < fab.x + fab.width &&
        fab.x < box.x + box.width &&
        box.y < fab.y + fab.height &&
        fab.y < box.y + box.height;
      expect(overlaps, `the run button covers "${await line.textContent()}"`).toBe(false);
    }
    expect(await page.title()).toBe('Home · StrideStake');
  }, 120_000);

  it('run: the tracker, the stop confirmation, the run-saved summary and the goal celebration', async () => {
    await visit('/run', page.getByRole('button', { name: 'Start Run' }));
    await shoot(page, 'phone-run');
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    await emitTrack(page, TRACK, FIX_EVERY_SEC);
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    await shoot(page, 'phone-run-tracking');
    stack.runtime.clock.set(new Date(await page.evaluate(() => Date.now())));
    await page.getByRole('button', { name: 'Stop Run' }).click();
    await dialog('Stop tracking?').waitFor();
    await shoot(page, 'modal-stop-tracking', { fullPage: false });
    await dialog('Stop tracking?').getByRole('button', { name: 'Stop & Save' }).click();
    await dialog('Run saved!').waitFor();
    await shoot(page, 'modal-run-saved', { fullPage: false });
    // Spacious: the XP the run earned, its route and splits; Done stays in view.
    await dialog('Run saved!')
      .getByText(/^\+\d+ XP$/)
      .waitFor();
    await dialog('Run saved!')
      .getByRole('img', { name: /^Route map/ })
      .waitFor();
    expect(await dialog('Run saved!').getByRole('button', { name: 'Done' }).isVisible()).toBe(true);
    await dialog('Run saved!').getByRole('region', { name: 'Splits' }).scrollIntoViewIfNeeded();
    await shoot(page, 'modal-run-saved-scrolled', { fullPage: false });
    await dialog('Run saved!').getByRole('button', { name: 'Done' }).click();
    await dialog('Goal Complete!').waitFor();
    await shoot(page, 'modal-celebration-goal', { fullPage: false });
    await closeCelebrations(page);
  }, 300_000);

  it('run history with route thumbnails, the run detail with its map, splits and pace chart; the XP guide', async () => {
    await visit('/run-history', page.getByText('GPS', { exact: true }).first());
    expect(await page.title()).toBe('Run History · StrideStake');
    expect(await page.getByRole('link', { name: 'Run', exact: true }).getAttribute('aria-current')).toBe('page');
    await shoot(page, 'phone-run-history');
    // The run tracked on this phone: its route, splits and pace.
    await page.locator('.run-row').first().getByRole('link').click();
    await page.getByRole('img', { name: /^Route map/ }).waitFor();
    await page.getByRole('img', { name: /^Pace chart/ }).waitFor();
    // A header row, the whole km and the rest.
    expect(await page.getByRole('region', { name: 'Splits' }).getByRole('row').count()).toBe(3);
    expect(await page.getByRole('link', { name: 'Run', exact: true }).getAttribute('aria-current')).toBe('page');
    await shoot(page, 'phone-run-detail');
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(`${stack.webUrl}/run-history`);
    // A run posted whole from elsewhere: its track comes from the server (GET /runs/{id}), so its map shows too.
    await page.locator('.run-row').nth(1).getByRole('link').click();
    await page.getByRole('img', { name: /^Route map/ }).waitFor();
    await page.getByRole('region', { name: 'Splits' }).waitFor();
    await shoot(page, 'phone-run-detail-track-from-server');
    await visit('/xp-guide', page.getByRole('heading', { name: 'Tiers' }));
    expect(await page.getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: 'Back' }).waitFor();
    await shoot(page, 'phone-xp-guide');
  }, 120_000);

  it('goals: the wizard step by step to a staked goal for next week, the cancel confirmation, the stats', async () => {
    await visit('/goals', page.getByRole('button', { name: 'Plan Next Week' }));
    await shoot(page, 'phone-goals');
    // Pauses with notice (issue 25): the week picker and the reasons.
    await page.getByRole('button', { name: 'Pause a Week' }).click();
    await dialog('Pause a Week').waitFor();
    await shoot(page, 'modal-pause-week', { fullPage: false });
    await dialog('Pause a Week').getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog('Pause a Week').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Plan Next Week' }).click();
    await dialog('Set Your Goal').waitFor();
    await page.getByLabel('Target (km)').fill('15');
    await shoot(page, 'modal-wizard-1-goal', { fullPage: false });
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog('Add a Stake').getByRole('button', { name: '$10', exact: true }).click();
    await shoot(page, 'modal-wizard-2-stake', { fullPage: false });
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog('Confirm Your Stake').waitFor();
    await shoot(page, 'modal-wizard-3-confirm-stake', { fullPage: false });
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog('Payment Method').getByLabel('Card number').waitFor();
    await shoot(page, 'modal-wizard-4-payment', { fullPage: false });
    await fillLocalCard(dialog('Payment Method'), '4242 4242 4242 4242');
    await dialog('Payment Method').getByRole('button', { name: 'Save Card' }).click();
    const charity = dialog('Choose a Charity');
    await charity.getByRole('button', { name: 'Create Goal' }).waitFor();
    await shoot(page, 'modal-wizard-5-charity', { fullPage: false });
    // The title and Create Goal stay on the phone's screen while the charities scroll between them.
    for (const sticky of [
      charity.getByRole('heading', { name: 'Choose a Charity' }),
      charity.getByRole('button', { name: 'Create Goal' }),
    ]) {
      const box = (await sticky.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
    }
    await charity.getByRole('button', { name: /GiveDirectly/ }).click();
    await shoot(page, 'modal-wizard-5-charity-chosen', { fullPage: false });
    await charity.getByRole('button', { name: 'Create Goal' }).click();
    await charity.waitFor({ state: 'detached' });
    const upcoming = page.getByRole('region', { name: 'Upcoming goal' });
    await upcoming.waitFor();
    await shoot(page, 'phone-goals-with-upcoming');
    await upcoming.getByRole('button', { name: 'Cancel' }).click();
    await dialog('Cancel upcoming goal?').waitFor();
    await shoot(page, 'modal-cancel-goal', { fullPage: false });
    await dialog('Cancel upcoming goal?').getByRole('button', { name: 'Keep Goal' }).click();
    await visit(`/goals/${goalId}/stats`, page.getByText('Average pace'));
    await shoot(page, 'phone-goal-stats');
  }, 120_000);

  it('groups: empty list, join and create dialogs, a group with a friend and the challenge tabs', async () => {
    await visit('/groups', page.getByRole('heading', { name: 'No groups yet' }));
    await shoot(page, 'phone-groups-empty');
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await dialog('Join Group').waitFor();
    await shoot(page, 'modal-join-group', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog('Create Group').getByLabel('Group name').fill('Sunrise Striders');
    await shoot(page, 'modal-create-group', { fullPage: false });
    await dialog('Create Group').getByRole('button', { name: 'Create Group' }).click();
    await dialog('Create Group').waitFor({ state: 'detached' });
    const groups = await apiFromPage(page, stack.apiUrl, 'GET', '/groups');
    const group = (groups.json as { groups: { id: string }[] }).groups[0]!;
    groupId = group.id;
    const detail = await apiFromPage(page, stack.apiUrl, 'GET', `/groups/${groupId}`);
    const code = (detail.json as { data: { invite_code: string } }).data.invite_code;

    // A friend joins with the code and runs 5 km on Wednesday.
    const friend = await signedInUser(stack, 'Sam Sprinter');
    try {
      await friend.page.goto(`${stack.webUrl}/terms`);
      const joined = await apiFromPage(friend.page, stack.apiUrl, 'POST', '/groups/join', { invite_code: code });
      expect(joined.status).toBeLessThan(300);
      const run = trackedRunBody(Date.parse('2026-11-25T12:00:00.000Z'), 5, 300);
      expect((await apiFromPage(friend.page, stack.apiUrl, 'POST', '/runs', run)).status).toBe(201);
    } finally {
      await friend.context.close();
    }
    await visit('/groups', page.getByRole('link', { name: /Sunrise Striders/ }));
    await shoot(page, 'phone-groups');
    await visit(`/groups/${groupId}`, page.getByRole('region', { name: 'Team challenges' }).getByText('Sam Sprinter'));
    await shoot(page, 'phone-group-detail');
    // The three challenge tabs sit on one row at 390 px.
    const tabTops = await Promise.all(
      ['This Week', 'Streaks', 'Best Pace'].map(
        async (name) => (await page.getByRole('tab', { name }).boundingBox())!.y,
      ),
    );
    expect(new Set(tabTops).size).toBe(1);
    await page.getByRole('tab', { name: 'Best Pace' }).click();
    await shoot(page, 'phone-group-challenges-best-pace', {
      fullPage: false,
      show: page.getByRole('region', { name: 'Team challenges' }),
    });
  }, 120_000);

  it('profile: both tabs and the settings dialogs', async () => {
    await visit('/profile', page.getByRole('heading', { name: 'Riley Runner' }));
    await shoot(page, 'phone-profile');
    await visit('/profile?tab=stakes', page.getByRole('tab', { name: 'Stakes', selected: true }));
    await shoot(page, 'phone-profile-stakes');
    for (const [button, title, name] of [
      ['Notification Settings', 'Notification Settings', 'notification-settings'],
      ['Distance unit', 'Distance Unit', 'distance-unit'],
      ['Timezone', 'Timezone', 'timezone'],
      ['How It Works', 'How It Works', 'how-it-works'],
    ] as const) {
      await page.getByRole('button', { name: new RegExp(`^${button}`) }).click();
      await dialog(title).waitFor();
      await shoot(page, `modal-${name}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await dialog(title).waitFor({ state: 'detached' });
    }
  }, 120_000);

  it('connected apps: before and after connecting Strava; the synced runs in the history', async () => {
    await visit(
      '/connected-apps',
      page.getByRole('region', { name: 'Strava' }).getByRole('button', { name: 'Connect' }),
    );
    expect(await page.title()).toBe('Connected Apps · StrideStake');
    // Where each health store is available, once per card, on its button (the web reads neither).
    for (const [name, where] of [
      ['Health Connect', 'Available in the StrideStake app for Android'],
      ['Apple Health', 'Available in the StrideStake app for iPhone'],
    ] as const)
      expect(await page.getByRole('region', { name }).getByText(where).count()).toBe(1);
    await shoot(page, 'phone-connected-apps');
    strava.consent = { athleteId: ATHLETE, decision: 'approve' };
    await page.getByRole('region', { name: 'Strava' }).getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(`${stack.webUrl}/connected-apps`);
    const stravaCard = page.getByRole('region', { name: 'Strava' });
    await stravaCard.getByRole('button', { name: 'Sync Now' }).waitFor();
    // The sync worker queues the 30-day backfill on the connection event; its ticks import the runs.
    for (let round = 0; round < 5; round++) {
      await settle(stack.runtime);
      await stack.runtime.processes.tick();
      await page.reload();
      const synced = await stravaCard
        .getByText(/last synced/)
        .waitFor({ timeout: 3_000 })
        .then(() => true)
        .catch(() => false);
      if (synced) break;
    }
    await stravaCard.getByText(/last synced/).waitFor();
    await shoot(page, 'phone-connected-apps-connected');
    await visit('/run-history', page.getByText('Strava', { exact: true }).first());
    await shoot(page, 'phone-run-history-with-strava');
    // The owner sees the synced run's own track (Strava's terms allow it to its owner).
    await page.locator('.run-row', { hasText: 'Strava' }).first().getByRole('link').click();
    await page.getByRole('img', { name: /^Route map/ }).waitFor();
    await shoot(page, 'phone-run-detail-strava');
  }, 120_000);

  it('keyboard: a dialog takes the focus, keeps it, shows a focus ring, closes on Escape and gives the focus back', async () => {
    await visit('/profile', page.getByRole('heading', { name: 'Riley Runner' }));
    const opener = page.getByRole('button', { name: 'Notification Settings' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const settings = dialog('Notification Settings');
    await settings.getByRole('switch').first().waitFor();
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        type El = { closest(s: string): unknown; outerHTML: string } | null;
        const g = globalThis as unknown as {
          document: { activeElement: El };
          getComputedStyle(e: unknown): { outlineStyle: string };
        };
        const active = g.document.activeElement;
        return {
          inDialog: !!active?.closest('[role="dialog"]'),
          outline: g.getComputedStyle(active).outlineStyle,
          tag: active?.outerHTML.slice(0, 120),
        };
      });
      expect(focus.inDialog, `Tab ${i + 1} left the dialog (${focus.tag})`).toBe(true);
      expect(focus.outline, `no focus ring on ${focus.tag}`).not.toBe('none');
    }
    await shoot(page, 'modal-notification-settings-keyboard', { fullPage: false });
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
    const focused = await opener.evaluate(
      (el) => el === (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement,
    );
    expect(focused).toBe(true);
  }, 120_000);

  it('the main routes at 1280×800', async () => {
    await page.setViewportSize(DESKTOP);
    for (const [path, name, ready] of [
      ['/app', 'app', page.getByRole('region', { name: "This week's goal" })],
      ['/run', 'run', page.getByRole('button', { name: 'Start Run' })],
      ['/goals', 'goals', page.getByRole('heading', { name: 'Goals', level: 1 })],
      [`/groups/${groupId}`, 'group-detail', page.getByRole('region', { name: 'Team challenges' })],
      ['/profile', 'profile', page.getByRole('heading', { name: 'Riley Runner' })],
      ['/run-history', 'run-history', page.getByText('GPS', { exact: true }).first()],
      ['/connected-apps', 'connected-apps', page.getByRole('region', { name: 'Strava' })],
      ['/xp-guide', 'xp-guide', page.getByRole('heading', { name: 'Tiers' })],
    ] as const) {
      await visit(path, ready);
      await closeCelebrations(page);
      await shoot(page, `desktop-${name}`);
    }
    // The navigation is a rail at the side, not a bar stretched across the screen.
    const nav = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
    expect(nav.width).toBeLessThan(320);
    await page.setViewportSize({ width: 390, height: 844 });
  }, 180_000);

  it('has no serious or critical axe-core violation on any screen', () => {
    const rows = [...audits].map(([name, c]) => ({
      screen: name,
      critical: c.critical,
      serious: c.serious,
      moderate: c.moderate,
      minor: c.minor,
      rules: c.rules.join('; '),
    }));
    const width = Math.max(...rows.map((r) => r.screen.length));
    const lines = [
      `${'screen'.padEnd(width)}  critical  serious  moderate  minor  rules`,
      ...rows.map(
        (r) =>
          `${r.screen.padEnd(width)}  ${String(r.critical).padStart(8)}  ${String(r.serious).padStart(7)}  ${String(
            r.moderate,
          ).padStart(8)}  ${String(r.minor).padStart(5)}  ${r.rules}`,
      ),
    ];
    console.log(`axe-core violations per screen (${rows.length} screens):\n${lines.join('\n')}`);
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.filter((r) => r.critical + r.serious > 0).map((r) => `${r.screen}: ${r.rules}`)).toEqual([]);
  });
});
