import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEG_PER_KM } from '../../domain/run/track.test-helpers.ts';
import { trackLengthKm } from '../../domain/run/geo.ts';
import { plausibleDistanceKm } from '../../domain/run/plausible-track.ts';
import { formatDistance } from '../../domain/shared/units.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { emitFix, type Fix, installFakeGps } from './support/fake-gps.ts';
import { apiFromPage, screenshot, signedInUser } from './support/journey.ts';

/** A Wednesday morning in New York: the run sits well inside one goal week. */
const WEDNESDAY = '2026-11-25T15:00:00.000Z';
const FIX_EVERY_SEC = 3;
const PACE_SEC_PER_KM = 330;
/** 1.8 km due north at a constant 5:30 /km (a jump of 385 m must stay under a fifth of the ground: else a ride). */
const FIXES = Math.ceil(1800 / ((1000 / PACE_SEC_PER_KM) * FIX_EVERY_SEC)) + 1;
/** After about three minutes the phone's GPS jumps 385 m east, in 2 s, and stays off by that much (issue 26). */
const JUMP_AT = 60;
const JUMP_SEC = 2;
const JUMP_M = 385;

const onLine = (i: number, eastM: number): Fix => ({
  latitude: 51.5 + ((i * FIX_EVERY_SEC * 1000) / PACE_SEC_PER_KM / 1000) * DEG_PER_KM,
  longitude: -0.12 + (eastM / 1000) * (DEG_PER_KM / Math.cos((51.5 * Math.PI) / 180)),
  accuracy: 5,
});
/** The fixes the device reports, and the seconds of the page's clock before each. */
const TRACK: { fix: Fix; afterSec: number }[] = Array.from({ length: FIXES }, (_, i) => ({
  fix: onLine(i, i >= JUMP_AT ? JUMP_M : 0),
  afterSec: i === 0 ? 0 : i === JUMP_AT ? JUMP_SEC : FIX_EVERY_SEC,
}));

/** The track as the device stamped it (from the first fix), for the distances the screens must and must not show. */
function stamped(): { latitude: number; longitude: number; timestamp: number; accuracy: number }[] {
  let t = 0;
  return TRACK.map(({ fix, afterSec }) => {
    t += afterSec * 1000;
    return { ...fix, timestamp: t };
  });
}

/** m:ss (or h:mm:ss) as seconds. */
const seconds = (text: string): number => {
  const parts = /(\d+(?::\d\d)+)/.exec(text)![1]!.split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
};

describe('one run, one pace (issue 26): a run with a GPS jump shows one distance, time and pace everywhere', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** A runner in `unit` runs the track live (the server's clock follows the page's), stops, and saves. */
  async function runWithJump(name: string, unit: 'km' | 'mi') {
    stack.runtime.clock.set(WEDNESDAY);
    const { context, page } = await signedInUser(stack, name);
    await context.clock.install({ time: new Date(WEDNESDAY) });
    await installFakeGps(context, TRACK[0]!.fix);
    await page.goto(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name }).waitFor();
    const put = await apiFromPage(page, stack.apiUrl, 'PUT', '/me/preferences', { distance_unit: unit });
    expect(put.status).toBe(200);
    await page.goto(`${stack.webUrl}/run`);
    await page.getByRole('button', { name: 'Start Run' }).click();
    await page.getByRole('button', { name: 'Stop Run' }).waitFor();
    let now = (await page.evaluate(() => Date.now())) + 1_000;
    await page.clock.pauseAt(new Date(now));
    stack.runtime.clock.set(new Date(now));
    for (const { fix, afterSec } of TRACK) {
      if (afterSec > 0) {
        now += afterSec * 1000;
        // The server's clock first: the uploads the page makes on its way are received live, as on a phone.
        stack.runtime.clock.set(new Date(now));
        await page.clock.fastForward(afterSec * 1000);
      }
      await emitFix(page, fix);
    }
    await page.getByText(`${TRACK.length} GPS points`, { exact: true }).waitFor();
    // A second more, so the tracking banner (it reads the tracker each second) has the last fix too.
    now += 1_000;
    stack.runtime.clock.set(new Date(now));
    await page.clock.fastForward(1_000);
    return { context, page };
  }

  /** What the tracker shows while running, then the run summary after Stop & Save. */
  async function stopAndSave(page: Page): Promise<Locator> {
    await page.getByRole('button', { name: 'Stop Run' }).click();
    await page.getByRole('dialog', { name: 'Stop tracking?' }).getByRole('button', { name: 'Stop & Save' }).click();
    const summary = page.getByRole('dialog', { name: 'Run saved!' });
    await summary.waitFor();
    await page.clock.resume();
    return summary;
  }

  /** Time and pace as a RunStats block shows them. */
  async function stats(scope: Locator) {
    const time =
      (await scope.locator('.summary-stats div', { hasText: 'Time' }).locator('dd').textContent())?.trim() ?? '';
    const pace =
      (await scope.locator('.summary-stats div', { hasText: 'Pace' }).locator('dd').textContent())?.trim() ?? '';
    return { time, pace };
  }

  /** The splits as the table shows them: label, pace and time of each. */
  async function splits(scope: Locator) {
    const rows = scope.locator('table.splits tbody tr');
    await rows.first().waitFor();
    const out: { label: string; pace: number; time: number }[] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      out.push({
        label: (await row.locator('th').textContent())?.trim() ?? '',
        pace: seconds((await row.locator('td').first().textContent()) ?? ''),
        time: seconds((await row.locator('td').last().textContent()) ?? ''),
      });
    }
    return out;
  }

  /** The splits add up to the run's time, and each is run at the run's pace but for the 2 s of the jump. */
  function expectSplitsOfRun(rows: { pace: number; time: number }[], run: { time: string; pace: string }) {
    const total = rows.reduce((sum, r) => sum + r.time, 0);
    // Each split's time is rounded to the second on screen.
    expect(Math.abs(total - seconds(run.time))).toBeLessThanOrEqual(rows.length);
    for (const r of rows) expect(Math.abs(r.pace - seconds(run.pace))).toBeLessThanOrEqual(3);
  }

  for (const unit of ['km', 'mi'] as const) {
    it(`in ${unit}: the live distance leaves the jump out, and the summary, history, detail and splits show the same time and pace; the chart starts flat`, async () => {
      const track = stamped();
      const counted = formatDistance(plausibleDistanceKm(track), unit);
      const withJump = formatDistance(trackLengthKm(track), unit);
      expect(counted).not.toBe(withJump);
      const { context, page } = await runWithJump(unit === 'km' ? 'Jo Jump' : 'Milo Jump', unit);

      // The tracker, live: the policy's distance, not the jump's.
      const readout = page.locator('.tracker-readout');
      await readout.getByText(counted, { exact: true }).waitFor();
      expect(await readout.getByText(withJump).count()).toBe(0);
      await page.locator('.tracking-banner', { hasText: counted }).waitFor();
      await screenshot(page, `one-run-one-pace-live-${unit}`);

      const summary = await stopAndSave(page);
      await summary.locator('.summary-distance', { hasText: counted }).waitFor();
      const run = await stats(summary);
      expect(run.pace).toMatch(new RegExp(`^\\d+:\\d\\d /${unit}$`));
      // A constant 5:30 /km (8:51 /mi), but for the jump's 2 s and the seconds around the first and last fix.
      const truePace = unit === 'km' ? PACE_SEC_PER_KM : PACE_SEC_PER_KM / 0.621371;
      expect(Math.abs(seconds(run.pace) - truePace)).toBeLessThanOrEqual(4);
      // The policy says it left the jump out (the run's verdict sentence names it).
      expect(await summary.locator('.run-verdict', { hasText: 'Partly counted' }).count()).toBe(1);
      expectSplitsOfRun(await splits(summary), run);
      await screenshot(page, `one-run-one-pace-summary-${unit}`);
      await summary.getByRole('button', { name: 'Done' }).click();

      // The history: the same distance, time and pace.
      await page.goto(`${stack.webUrl}/run-history`);
      const row = page.locator('.run-row').first();
      await row.locator('.run-figures strong', { hasText: counted }).waitFor();
      expect((await row.locator('.run-figures .muted').first().textContent())?.trim() ?? '').toBe(
        `${run.time} · ${run.pace}`,
      );

      // The detail: the same again, the same splits, and a pace chart that starts at the run's pace.
      await row.locator('.run-link').click();
      const head = page.locator('.run-detail-head');
      await head.locator('.summary-distance', { hasText: counted }).waitFor();
      expect(await stats(head)).toEqual(run);
      const route = page.getByRole('region', { name: 'Route' });
      expectSplitsOfRun(await splits(route), run);
      const chart = route.getByRole('img', { name: /^Pace chart:/ });
      const label = (await chart.getAttribute('aria-label'))!;
      const [start, fastest, , average] = [...label.matchAll(/(\d+:\d\d) \//g)].map((m) => seconds(m[1]!));
      expect(label).toContain(`/${unit}`);
      // No spike at the start: the first point is the run's pace, and nothing charted is faster than it by much.
      expect(Math.abs(start! - seconds(run.pace))).toBeLessThanOrEqual(3);
      expect(Math.abs(start! - average!)).toBeLessThanOrEqual(3);
      expect(seconds(run.pace) - fastest!).toBeLessThanOrEqual(3);
      await screenshot(page, `one-run-one-pace-detail-${unit}`);
      await context.close();
    }, 240_000);
  }
});
