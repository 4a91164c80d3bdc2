import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFileMessages } from '../../app-server/integrations/run-files/messages.ts';
import { parseRunFile } from '../../app-server/integrations/run-files/parse-run-file.ts';
import { gpsDistanceKm } from '../../domain/run/geo.ts';
import { type DistanceUnit, formatDistance } from '../../domain/shared/units.ts';
import { fixtureFit, fixtureGpx, fixtureRun, fixtureTcx, hostileFiles } from '../fixtures/run-files.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { apiFromPage, screenshot, signedInUser } from './support/journey.ts';

// Issue 24 item 3, "Watch files", in the browser: a GPX, a TCX and a FIT file of a run (made with the libraries,
// tests/fixtures/run-files.ts) imported from the run screen, each shown with its verdict; a run exported as GPX and
// imported into another account keeps its distance; each hostile file is refused with its sentence, nothing saved;
// "Download my data" on the profile gives a zip with every run.
describe('journey: watch files in and out', () => {
  let stack: E2eStack;
  let rosa: { context: BrowserContext; page: Page };
  let unit: DistanceUnit = 'km';
  const text = (s: string) => Buffer.from(s, 'utf8');
  let nowMs = 0;
  /** A 5 km run at 5:30/km that started `minutesAgo` before the server's now (all end within 2 hours of it). */
  const runStarted = (minutesAgo: number, lonOffset: number) =>
    fixtureRun({ startMs: nowMs - minutesAgo * 60_000, km: 5, paceSecPerKm: 330, lonOffset });

  /** The file input behind the "Import a file" button (a label around a hidden input, as a real button shows). */
  const importInput = (page: Page) => page.getByRole('button', { name: 'Import a file' });
  const importedCard = (page: Page) => page.getByRole('status', { name: 'Imported run' });
  const runCount = async (page: Page) =>
    ((await apiFromPage(page, stack.apiUrl, 'GET', '/runs?limit=100')).json as { data: unknown[] }).data.length;
  /** The figure of a distance shown on screen ("5.01 km" → 5.01). */
  const figureOf = async (locator: Locator) => Number(/([\d.]+) (km|mi)/.exec((await locator.textContent()) ?? '')![1]);

  beforeAll(async () => {
    stack = await startE2eStack();
    nowMs = stack.runtime.clock.now().getTime();
    rosa = await signedInUser(stack, 'Rosa Runner');
    await rosa.page.goto(`${stack.webUrl}/app`);
    await rosa.page.getByRole('heading', { name: 'Rosa Runner' }).waitFor();
    const goal = await apiFromPage(rosa.page, stack.apiUrl, 'POST', '/goals', { type: 'distance', target_value: 20 });
    expect(goal.status).toBe(201);
    const prefs = await apiFromPage(rosa.page, stack.apiUrl, 'GET', '/me/preferences');
    unit = (prefs.json as { data: { distance_unit: DistanceUnit } }).data.distance_unit;
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it.each([
    [
      'GPX',
      'morning.gpx',
      () => text(fixtureGpx(runStarted(100, 0))),
      'a GPX file from Forerunner 255 (Garmin Connect)',
    ],
    ['TCX', 'lunch.tcx', () => text(fixtureTcx(runStarted(70, 0.01))), 'a TCX file from Forerunner 965 (Connect Api)'],
    [
      'FIT',
      'evening.fit',
      () => Buffer.from(fixtureFit(runStarted(40, 0.02))),
      'a FIT file from Forerunner 255 (garmin)',
    ],
  ])(
    'a %s file imported from the run screen: the run on screen with its verdict',
    async (format, name, bytes, origin) => {
      const { page } = rosa;
      const file = bytes();
      await page.goto(`${stack.webUrl}/run`);
      await importInput(page).setInputFiles({ name, mimeType: 'application/octet-stream', buffer: file });
      const card = importedCard(page);
      await card.waitFor({ timeout: 60_000 });
      const km = gpsDistanceKm(parseRunFile(new Uint8Array(file)).positions);
      await card.getByText(`Imported ${formatDistance(km, unit)} in 27:30`).waitFor();
      await card.getByText(origin, { exact: false }).waitFor();
      // Imported within 2 hours of its end, dense and at running pace: verified, counted toward the goal.
      await card.getByText('Verified', { exact: true }).waitFor();
      await card.getByText(/toward your goal/).waitFor();
      await screenshot(page, `watch-files-imported-${format.toLowerCase()}`, card);
    },
  );

  it('the same file imported again from the run history is the same run: nothing added', async () => {
    const { page } = rosa;
    const before = await runCount(page);
    await page.goto(`${stack.webUrl}/run-history`);
    const again = text(fixtureGpx(runStarted(100, 0)));
    await importInput(page).setInputFiles({ name: 'morning.gpx', mimeType: 'application/gpx+xml', buffer: again });
    await importedCard(page).getByText('Verified', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await runCount(page)).toBe(before);
    expect(await page.getByRole('button', { name: 'Delete run' }).count()).toBe(before);
  });

  it('Export GPX on the run detail, imported into another account: the same distance (±0.5%)', async () => {
    const { page } = rosa;
    await importedCard(page).getByRole('link', { name: 'View run' }).click();
    await page.getByRole('button', { name: 'Export TCX' }).waitFor();
    const shown = await figureOf(page.locator('.summary-distance'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export GPX' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^stridestake-run-\d{4}-\d\d-\d\d\.gpx$/);
    const path = await download.path();
    expect((await readFile(path, 'utf8')).startsWith('<?xml')).toBe(true);

    const ben = await signedInUser(stack, 'Ben Other');
    await ben.page.goto(`${stack.webUrl}/run`);
    await importInput(ben.page).setInputFiles(path);
    const card = importedCard(ben.page);
    await card.getByText('Verified', { exact: true }).waitFor({ timeout: 60_000 });
    const theirs = await figureOf(card.getByText(/^Imported /));
    expect(Math.abs(theirs - shown)).toBeLessThanOrEqual(shown * 0.005);
    await screenshot(ben.page, 'watch-files-export-imported-elsewhere', card);
    await ben.context.close();
  });

  it.each([
    ['invalid XML', runFileMessages.invalidXml],
    ['entity expansion', runFileMessages.declarations],
    ['deep nesting', runFileMessages.tooDeep],
    ['a FIT with a bad CRC', runFileMessages.fitChecksum],
    ['a FIT whose declared size is past its bytes', runFileMessages.fitTruncated],
    ['10 MB of fixes', runFileMessages.tooManyFixes],
  ])('%s: refused with its sentence on screen, nothing saved', async (name, sentence) => {
    const { page } = rosa;
    await page.goto(`${stack.webUrl}/run`);
    const before = await runCount(page);
    const file = hostileFiles().find((f) => f.name === name)!;
    const ext = name.includes('FIT') ? 'fit' : 'gpx';
    await importInput(page).setInputFiles({
      name: `hostile.${ext}`,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(file.bytes),
    });
    const alert = page.getByRole('region', { name: 'Import a file' }).getByRole('alert');
    await alert.getByText(sentence, { exact: true }).waitFor({ timeout: 60_000 });
    expect(await runCount(page)).toBe(before);
    await screenshot(page, `watch-files-refused-${name.replace(/\W+/g, '-')}`, alert);
  });

  it('"Download my data" on the profile: a zip with every run as GPX and the goals as JSON', async () => {
    const { page } = rosa;
    await page.goto(`${stack.webUrl}/profile`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download my data/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^stridestake-data-\d{4}-\d\d-\d\d\.zip$/);
    await page.getByText('Downloaded', { exact: true }).waitFor();
    const files = unzipSync(new Uint8Array(await readFile(await download.path())));
    const runs = await runCount(page);
    expect(Object.keys(files).filter((f) => f.endsWith('.gpx'))).toHaveLength(runs);
    const goals = JSON.parse(strFromU8(files['goals.json']!)) as { target_value: number }[];
    expect(goals.map((g) => g.target_value)).toEqual([20]);
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['account.json', 'stakes.json', 'groups.json', 'preferences.json', 'runs.json']),
    );
  });
});
