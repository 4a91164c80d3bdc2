import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpsDistanceKm } from '../../domain/run/geo.ts';
import { runFileMessages } from '../../app-server/integrations/run-files/messages.ts';
import {
  fixtureFit,
  fixtureGpx,
  fixtureRun,
  fixtureTcx,
  type FixtureFix,
  hostileFiles,
} from '../fixtures/run-files.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { userRequests } from '../support/user-requests.ts';
import { createTestUser, freshToken, type TestUser } from '../support/users.ts';

// Issue 24 item 3, "Watch files": GPX, TCX and FIT files imported as runs through the run policy, exported as GPX
// or TCX, the whole account downloaded; hostile files refused with a sentence and nothing saved.
describe.each(databaseTargets())('watch files, on %s', (target) => {
  let rt: TestRuntime;
  let ana: TestUser;
  let ben: TestUser;
  const { post, runsOf } = userRequests(() => rt);

  /** POST /runs/import with the bytes as the multipart field `file`. */
  const importFile = async (user: TestUser, bytes: Uint8Array | string, name: string) => {
    const form = new FormData();
    form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer> | string]), name);
    const response = await rt.app.request('/runs/import', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
    const body: any = await response.json();
    return { status: response.status, body };
  };
  const exportRun = async (user: TestUser, id: string, format: string) => {
    const response = await rt.app.request(`/runs/${id}/export?format=${format}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };
  /** The server's clock half an hour after the run's end: a file imported soon after the run. */
  const soonAfter = (run: readonly FixtureFix[]) =>
    rt.clock.set(new Date(run[run.length - 1]!.timestamp + 30 * 60_000).toISOString());

  const at = (iso: string, lonOffset: number) =>
    fixtureRun({ startMs: Date.parse(iso), km: 5, paceSecPerKm: 330, lonOffset });
  const gpxRun = at('2026-11-23T07:00:00Z', 0);
  const tcxRun = at('2026-11-24T07:00:00Z', 0.01);
  const fitRun = at('2026-11-25T07:00:00Z', 0.02);

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-23T06:00:00Z' });
    ana = await createTestUser(rt, 'ana');
    ben = await createTestUser(rt, 'ben');
    expect((await post(ana, '/goals', { type: 'distance', target_value: 30 })).status).toBe(201);
  }, 120_000);
  afterAll(() => rt?.close());

  it.each([
    ['GPX', () => gpxRun, () => fixtureGpx(gpxRun), 'gpx', 'Garmin Connect', 'Forerunner 255'],
    ['TCX', () => tcxRun, () => fixtureTcx(tcxRun), 'tcx', 'Connect Api', 'Forerunner 965'],
    ['FIT', () => fitRun, () => fixtureFit(fitRun), 'fit', 'garmin', 'Forerunner 255'],
  ] as const)(
    'a %s file of a run becomes a run with its verdict, its creator and device',
    async (_n, run, file, format, creator, device) => {
      soonAfter(run());
      ana = await freshToken(rt, ana);
      const answer = await importFile(ana, file(), `morning.${format}`);
      expect(answer.status).toBe(201);
      const km = gpsDistanceKm(run());
      expect(Math.abs(answer.body.data.distance_km - km)).toBeLessThanOrEqual(km * 0.005);
      expect(answer.body.data.started_at).toBe(new Date(run()[0]!.timestamp).toISOString());
      expect(answer.body.data.verification.verdict).toBe('verified');
      expect(answer.body.data.verification.stake_distance_km).toBeGreaterThan(4.9);
      expect(answer.body.data.recorded_with).toEqual({ format, creator, device });
      const detail = await rt.request('GET', `/runs/${answer.body.data.id}`, { token: ana.token });
      expect(detail.body.data.recorded_with).toEqual({ format, creator, device });
    },
  );

  it('the same file imported twice is one run (the same id, nothing added)', async () => {
    const before = await runsOf(ana);
    const again = await importFile(ana, fixtureFit(fitRun), 'again.fit');
    expect(again.status).toBe(201);
    expect(before.map((r) => r.id)).toContain(again.body.data.id);
    expect(await runsOf(ana)).toHaveLength(before.length);
  });

  it('a file imported hours after the run counts for XP and free goals, not toward a stake (uploaded late)', async () => {
    const late = at('2026-11-25T09:00:00Z', 0.03);
    rt.clock.set('2026-11-25T13:00:00Z');
    ana = await freshToken(rt, ana);
    const answer = await importFile(ana, fixtureGpx(late), 'late.gpx');
    expect(answer.status).toBe(201);
    expect(answer.body.data.verification.reasons).toContain('uploaded_late');
    expect(answer.body.data.verification.stake_distance_km).toBe(0);
    expect(answer.body.data.verification.xp_distance_km).toBeGreaterThan(4.9);
  });

  it('a file of a run older than 7 days is refused, as any upload after the fact', async () => {
    const old = at('2026-11-10T07:00:00Z', 0.04);
    const answer = await importFile(ana, fixtureTcx(old), 'old.tcx');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('A run can only be logged within 7 days of its start');
  });

  it.each(['gpx', 'tcx'])('export as %s, import into another account: the same distance (±0.5%%)', async (format) => {
    const [run] = (await runsOf(ana)).filter(Boolean);
    const mine = await rt.request('GET', `/runs/${run!.id}`, { token: ana.token });
    const file = await exportRun(ana, run!.id, format);
    expect(file.status).toBe(200);
    expect(file.type).toContain(format === 'gpx' ? 'application/gpx+xml' : 'tcx');
    ben = await freshToken(rt, ben);
    const theirs = await importFile(ben, file.text, `export.${format}`);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(run!.id);
    expect(Math.abs(theirs.body.data.distance_km - mine.body.data.distance_km)).toBeLessThanOrEqual(
      mine.body.data.distance_km * 0.005,
    );
    // Ben's copy of Ana's recording is his own run; the original owner importing her export gets her run back.
    const back = await importFile(ana, file.text, `export.${format}`);
    expect(back.body.data.id).toBe(run!.id);
  });

  it("another user's run, or no run, answers 404 on export; a wrong format 400", async () => {
    const [run] = await runsOf(ana);
    expect((await exportRun(ben, run!.id, 'gpx')).status).toBe(404);
    expect((await exportRun(ben, '00000000-0000-4000-8000-000000000000', 'tcx')).status).toBe(404);
    const wrong = await exportRun(ana, run!.id, 'kml');
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.text).error).toBe("format must be 'gpx' or 'tcx'");
  });

  it.each([
    ['invalid XML', runFileMessages.invalidXml],
    ['entity expansion', runFileMessages.declarations],
    ['deep nesting', runFileMessages.tooDeep],
    ['a FIT with a bad CRC', runFileMessages.fitChecksum],
    ['a FIT whose declared size is past its bytes', runFileMessages.fitTruncated],
    ['10 MB of fixes', runFileMessages.tooManyFixes],
  ])('%s: 4xx with its sentence, nothing saved', async (name, sentence) => {
    const before = await runsOf(ana);
    const headBefore = await rt.store.headPosition({ committed: true });
    const file = hostileFiles().find((f) => f.name === name)!;
    const answer = await importFile(ana, file.bytes, 'hostile.gpx');
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe(sentence);
    expect(await runsOf(ana)).toEqual(before);
    // Nothing appended to the log either: its head has not moved.
    expect(await rt.store.headPosition({ committed: true })).toEqual(headBefore);
  });

  it('a body over 10 MB is refused with 413 and its sentence; a request without a file with 400', async () => {
    const before = await runsOf(ana);
    const big = await importFile(ana, new Uint8Array(10 * 1024 * 1024 + 100_000), 'big.fit');
    expect(big.status).toBe(413);
    expect(big.body.error).toBe(runFileMessages.tooLarge);
    const none = await rt.request('POST', '/runs/import', { token: ana.token, body: { file: 'x' } });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe(runFileMessages.noFile);
    expect(await runsOf(ana)).toEqual(before);
  });

  it("Download my data: a zip with every run as GPX and the account's goals, stakes, groups and preferences", async () => {
    expect((await post(ana, '/groups', { name: 'Dawn Patrol' })).status).toBe(201);
    const response = await rt.app.request('/me/export', { headers: { authorization: `Bearer ${ana.token}` } });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const runs = await runsOf(ana);
    const gpx = Object.keys(files).filter((f) => f.startsWith('runs/') && f.endsWith('.gpx'));
    expect(gpx).toHaveLength(runs.length);
    for (const r of runs) expect(gpx.some((f) => f.includes(r.id))).toBe(true);
    const read = (name: string) => JSON.parse(strFromU8(files[name]!));
    expect(read('account.json').email).toBe(ana.email);
    expect(read('goals.json')).toHaveLength(1);
    expect(read('goals.json')[0].target_value).toBe(30);
    expect(read('stakes.json')).toEqual([]);
    expect(read('groups.json').map((g: { name: string }) => g.name)).toEqual(['Dawn Patrol']);
    expect(read('preferences.json').preferences.distance_unit).toBeDefined();
    expect(read('runs.json')).toHaveLength(runs.length);
    // Ben's download holds Ben's runs only.
    const bens = unzipSync(
      new Uint8Array(
        await (await rt.app.request('/me/export', { headers: { authorization: `Bearer ${ben.token}` } })).arrayBuffer(),
      ),
    );
    const benRuns = await runsOf(ben);
    expect(Object.keys(bens).filter((f) => f.endsWith('.gpx'))).toHaveLength(benRuns.length);
    expect(JSON.parse(strFromU8(bens['account.json']!)).email).toBe(ben.email);
  });
});
