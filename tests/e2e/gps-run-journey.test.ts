import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { runXp } from '../../domain/gamification/xp.ts';
import { gpsDistanceKm } from '../../domain/run/geo.ts';
import { formatSpeed } from '../../domain/shared/units.ts';
import { surgeDecider } from '../../domain/surge/decide.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { emitFix, emitPositionUnavailable, type Fix, installFakeGps, parkRun } from './support/fake-gps.ts';
import { apiFromPage, screenshot, signedInUser } from './support/journey.ts';

/** A Wednesday morning in New York: the run, the goal's week and the surge all sit well inside one week. */
const WEDNESDAY = '2026-11-25T15:00:00.000Z';
const FIX_EVERY_SEC = 3;
/** 1.05 km at 5:30/km, a fix every 3 s: a realistic track, dense enough to prove its distance. */
const TRACK: Fix[] = parkRun({ km: 1.05, paceSecPerKm: 330, everySec: FIX_EVERY_SEC });

describe('journey: a GPS run completes the weekly goal', () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let goalId = '';

  /** The next fix, FIX_EVERY_SEC later on the page's clock (the run's minutes pass in moments). */
  const nextFix = async (fix: Fix) => {
    await page.clock.fastForward(FIX_EVERY_SEC * 1000);
    await emitFix(page, fix);
  };

  beforeAll(async () => {
    stack = await startE2eStack();
    // Scheduled an hour ahead (a surge cannot start in the past), then the morning moves on into it.
    stack.runtime.clock.set('2026-11-25T13:00:00.000Z');
    // A 2x XP surge around the run (an operator schedules these: `npm run surge -- schedule`).
    await executeCommand(
      stack.runtime.store,
      surgeDecider,
      'surge-schedule',
      {
        type: 'ScheduleSurge',
        surgeId: 'wednesday-double',
        xpMultiplier: 2,
        startsAt: '2026-11-25T14:00:00.000Z',
        endsAt: '2026-11-25T17:00:00.000Z',
        now: Temporal.Instant.fromEpochMilliseconds(stack.runtime.clock.now().getTime()),
      },
      { actorId: null, correlationId: 'e2e', now: stack.runtime.clock.now(), newEventId: randomUUID },
    );
    stack.runtime.clock.set(WEDNESDAY);
    // The server and the browser share one timeline: the page's clock starts where the server's is.
    ({ context, page } = await signedInUser(stack, 'Rosa Runner'));
    await context.clock.install({ time: new Date(WEDNESDAY) });
    await installFakeGps(context, TRACK[0]!);
    await page.goto(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name: 'Rosa Runner' }).waitFor();
    const goal = await apiFromPage(page, stack.apiUrl, 'POST', '/goals', { type: 'distance', target_value: 1 });
    expect(goal.status).toBe(201);
    goalId = (goal.json as { data: { id: string } }).data.id;
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('counts "1 GPS point", and a GPS error clears as soon as fixes arrive again', async () => {
    await page.getByRole('link', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    // While tracking, the page's time moves only with the fixes, so the run lasts exactly its track's time however
    // long the test itself takes (a loaded CI machine would otherwise add its own seconds to the run's pace).
    // A second ahead: on a loaded machine more than a millisecond passes before the pause (it cannot go back).
    await page.clock.pauseAt(new Date((await page.evaluate(() => Date.now())) + 1_000));
    await emitFix(page, TRACK[0]!);
    await page.getByText('1 GPS point', { exact: true }).waitFor();
    await screenshot(page, 'gps-run-1-gps-point');

    await nextFix(TRACK[1]!);
    await emitPositionUnavailable(page);
    const error = page
      .getByRole('alert')
      .filter({ hasText: 'Unable to access location services. Please check your settings.' });
    await error.waitFor();
    await screenshot(page, 'gps-run-error-shown');
    await nextFix(TRACK[2]!);
    await error.waitFor({ state: 'detached' });
    await page.getByText('3 GPS points', { exact: true }).waitFor();
    await screenshot(page, 'gps-run-error-cleared');
  });

  it('runs 1.05 km at 5:30/km; the run summary, then at once the goal-complete celebration', async () => {
    for (const fix of TRACK.slice(3)) await nextFix(fix);
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    const tracker = page.getByRole('region', { name: 'GPS tracker' });
    expect(await tracker.getByText(/^1\.0\d km$/).isVisible()).toBe(true);
    // The server's clock catches up with the run's end, as real time would have.
    stack.runtime.clock.set(new Date(await page.evaluate(() => Date.now())));

    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('dialog', { name: 'Stop tracking?' }).getByRole('button', { name: 'Stop & Save' }).click();
    const summary = page.getByRole('dialog', { name: 'Run saved!' });
    await summary.getByText('This run completed your weekly goal!').waitFor();
    expect(await summary.getByText(/^1\.0\d km$/).isVisible()).toBe(true);
    // About 5:30/km: the track's GPS noise makes it 1.06 km in its 5:48 (5:28/km).
    expect(await summary.getByText(/^5:[23]\d \/km$/).isVisible()).toBe(true);
    await screenshot(page, 'gps-run-summary');
    await page.clock.resume();

    await summary.getByRole('button', { name: 'Done' }).click();
    const celebration = page.getByRole('dialog', { name: 'Goal Complete!' });
    await celebration.waitFor({ timeout: 3_000 });
    expect(page.url()).toBe(`${stack.webUrl}/run`);
    await screenshot(page, 'gps-run-goal-complete-celebration');
    await celebration.getByRole('button', { name: 'Awesome!' }).click();
    // The first run's badge follows the goal's celebration.
    await page.getByRole('dialog', { name: 'Badge Earned!' }).getByRole('button', { name: 'Awesome!' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Celebrated once: the dashboard does not show it again.
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('region', { name: "This week's goal" }).getByText('Goal achieved!').waitFor();
    await page.clock.fastForward(2_000);
    expect(await page.getByRole('dialog', { name: 'Goal Complete!' }).count()).toBe(0);
  });

  it('lists the run in the history with the XP it earned and the Surge Bonus mark', async () => {
    const km = gpsDistanceKm(TRACK.map((f, i) => ({ ...f, timestamp: i * FIX_EVERY_SEC * 1000 })));
    await page.goto(`${stack.webUrl}/run-history`);
    const row = page.locator('.run-row').first();
    await row.getByText(`+${runXp(km, 2).total} XP`).waitFor();
    expect(await row.getByText('Surge Bonus').isVisible()).toBe(true);
    expect(await row.getByText('GPS', { exact: true }).isVisible()).toBe(true);
    await screenshot(page, 'run-history-xp-surge-bonus');
  });

  it('shows the goal stats with the average speed in km/h, and in mph with the mi unit', async () => {
    const stats = await apiFromPage(page, stack.apiUrl, 'GET', `/goals/${goalId}/stats`);
    const speed = (stats.json as { stats: { average_speed_kmh: number } }).stats.average_speed_kmh;
    expect(speed).toBeCloseTo(60 / 5.5, 0);
    await page.goto(`${stack.webUrl}/goals/${goalId}/stats`);
    await page.getByText('Week of Nov 23').waitFor();
    const speedCard = page.locator('.stat', { hasText: 'Average speed' });
    await speedCard.getByText(formatSpeed(speed, 'km')).waitFor();
    expect(
      await page
        .locator('.stat', { hasText: 'Average pace' })
        .getByText(/^5:[23]\d \/km$/)
        .isVisible(),
    ).toBe(true);
    await screenshot(page, 'goal-stats-average-speed-kmh');

    expect((await apiFromPage(page, stack.apiUrl, 'PUT', '/me/preferences', { distance_unit: 'mi' })).status).toBe(200);
    await page.reload();
    await speedCard.getByText(formatSpeed(speed, 'mi')).waitFor();
    expect(formatSpeed(speed, 'mi')).toMatch(/ mph$/);
    await screenshot(page, 'goal-stats-average-speed-mih');
  });
});
