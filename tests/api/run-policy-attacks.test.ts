import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEG_PER_KM } from '../../domain/run/track.test-helpers.ts';
import { audit, cycle, saveCard, stakeOf } from '../money/money-fixtures.ts';
import { honestTrack, runLiveSession, straightTrack, uploadBody } from '../support/run-tracks.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

/**
 * Issue 11, item 3, as an outsider would attack it: every fake run goes through the public API (POST /runs and the
 * GPS session routes) against a $100 goal, and none may earn stake distance; an honest phone track earns all of
 * its distance. The week is Monday 2026-11-16 to Sunday 2026-11-22 in New York; the clock only moves forward.
 */
describe.each(databaseTargets())('run policy against the attacks of issue 11 on %s', (target) => {
  let rt: TestRuntime;
  const runners = new Map<string, { user: TestUser; goalId: string }>();

  /** A runner with a saved card and a $100 goal of `km` this week, its hold placed. */
  async function runner(name: string, km = 30) {
    const user = await createTestUser(rt, name);
    const pm = await saveCard(rt, user);
    const res = await rt.request('POST', '/goals', {
      token: user.token,
      body: { type: 'distance', target_value: km, stake_amount_cents: 10_000, payment_method_id: pm },
    });
    if (res.status !== 201) throw new Error(`POST /goals: ${res.status} ${res.text}`);
    runners.set(name, { user, goalId: res.body.data.id });
  }
  const who = (name: string) => runners.get(name)!;
  /** Signs in again at the current (manual) clock time, for a token the server accepts now. */
  async function as(name: string) {
    const r = who(name);
    r.user = await freshToken(rt, r.user);
    return (method: string, path: string, body?: unknown) =>
      rt.request(method, path, { token: r.user.token, ...(body === undefined ? {} : { body }) });
  }
  const at = async (iso: string) => rt.clock.set(iso);
  /** The goal's progress (km counted toward the stake) and the stake's state once every worker caught up. */
  async function outcome(name: string) {
    await cycle(rt);
    const call = await as(name);
    const goal = (await call('GET', `/goals/${who(name).goalId}`)).body.data;
    const stake = await stakeOf(rt, who(name).user, who(name).goalId);
    return { progress: goal.progress as number, goalStatus: goal.status as string, stake: stake.status as string };
  }

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T13:00:00Z', config: { AUTH_TRUST_PROXY: true } });
    for (const name of ['honest', 'glitchy', 'uploader', 'sparse', 'parallel', 'overlap', 'fuzzy', 'old', 'fast']) {
      await runner(name);
    }
    await runner('session');
    await runner('deleter', 10);
    await runner('backdater', 10);
    await cycle(rt);
  }, 240_000);
  afterAll(() => rt?.close());

  it('an honest 5 km run tracked live (fixes every 1–5 s, 5–15 m, 5:30/km) earns all of its distance', async () => {
    const track = honestTrack('2026-11-16T14:00:00Z', { seed: 11 });
    const { finish } = await runLiveSession(rt, who('honest').user, track, { uploadEverySec: 30 });
    expect(finish.status).toBe(201);
    const v = finish.body.data.verification;
    expect(v).toMatchObject({ verdict: 'verified', reasons: [], counted_instead: null });
    expect(v.stake_distance_km).toBe(v.claimed_distance_km);
    expect(Math.abs(v.stake_distance_km - track.trueKm) / track.trueKm).toBeLessThan(0.05);
    const { progress, stake } = await outcome('honest');
    expect(progress).toBe(v.stake_distance_km);
    expect(stake).toBe('active');
  });

  it('the same with a 45 s loss of signal and a 300 m GPS spike: still all of its distance (±5%)', async () => {
    const track = honestTrack('2026-11-16T15:00:00Z', {
      seed: 12,
      glitches: [
        { kind: 'gap', atSec: 500, sec: 45 },
        { kind: 'spike', atSec: 1100, metres: 300 },
      ],
    });
    const { finish } = await runLiveSession(rt, who('glitchy').user, track, { uploadEverySec: 20 });
    const v = finish.body.data.verification;
    expect(v.reasons).toEqual(['teleport_segment']);
    expect(Math.abs(v.stake_distance_km - track.trueKm) / track.trueKm).toBeLessThan(0.05);
    expect((await outcome('glitchy')).progress).toBe(v.stake_distance_km);
  });

  it('an honest track uploaded whole right after the run (POST /runs) counts too', async () => {
    const track = honestTrack('2026-11-16T16:00:00Z', { seed: 13 });
    await at(new Date(track.positions.at(-1)!.timestamp + 60_000).toISOString());
    const call = await as('uploader');
    const res = await call('POST', '/runs', uploadBody('2026-11-16T16:00:00Z', track.durationSec, track.positions));
    expect(res.status).toBe(201);
    expect(res.body.data.verification).toMatchObject({ verdict: 'verified' });
    expect((await outcome('uploader')).progress).toBe(res.body.data.verification.stake_distance_km);
  });

  it('2 fixes 31 km and 3 hours apart: nothing toward the $100 30 km goal', async () => {
    await at('2026-11-16T17:01:00Z');
    const call = await as('sparse');
    const positions = [
      { latitude: 40.6, longitude: -73.9, timestamp: Date.parse('2026-11-16T14:00:00Z'), accuracy: 5 },
      {
        latitude: 40.6 + 31 * DEG_PER_KM,
        longitude: -73.9,
        timestamp: Date.parse('2026-11-16T17:00:00Z'),
        accuracy: 5,
      },
    ];
    const res = await call('POST', '/runs', uploadBody('2026-11-16T14:00:00Z', 3 * 3600, positions));
    expect(res.status).toBe(201);
    expect(res.body.data.verification).toMatchObject({
      verdict: 'rejected',
      stake_distance_km: 0,
      reasons: ['sparse_gps'],
    });
    expect(res.body.data.verification.claimed_distance_km).toBeCloseTo(31, 0);
    expect(await outcome('sparse')).toEqual({ progress: 0, goalStatus: 'active', stake: 'active' });
  });

  it('the same body sent 10 times in parallel is one run, counted once (same-recording.test.ts)', async () => {
    const track = honestTrack('2026-11-16T17:05:00Z', { km: 10, seed: 14 });
    await at(new Date(track.positions.at(-1)!.timestamp + 30_000).toISOString());
    const call = await as('parallel');
    const body = uploadBody('2026-11-16T17:05:00Z', track.durationSec, track.positions);
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/runs', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const runs = (await call('GET', '/runs?limit=100')).body.data;
    expect(runs).toHaveLength(1);
    expect(runs[0].verification.stake_distance_km).toBeGreaterThan(0);
    expect(runs[0].verification.counted_instead).toBeNull();
    expect((await outcome('parallel')).progress).toBe(runs[0].verification.stake_distance_km);
    // XP is paid once too.
    const ledger = await rt.store.readStream(`xp-${who('parallel').user.id}`);
    expect(ledger.filter((e) => e.type === 'RunXpAwarded')).toHaveLength(1);
  });

  it('a different track overlapping an earlier run of the same user earns nothing', async () => {
    const first = honestTrack('2026-11-16T18:00:00Z', { seed: 15 });
    await at(new Date(first.positions.at(-1)!.timestamp + 60_000).toISOString());
    let call = await as('overlap');
    const a = await call('POST', '/runs', uploadBody('2026-11-16T18:00:00Z', first.durationSec, first.positions));
    const second = honestTrack('2026-11-16T18:10:00Z', { km: 4, seed: 16 });
    await at(new Date(second.positions.at(-1)!.timestamp + 60_000).toISOString());
    call = await as('overlap');
    const b = await call('POST', '/runs', uploadBody('2026-11-16T18:10:00Z', second.durationSec, second.positions));
    expect(b.status).toBe(201);
    expect(b.body.data.verification).toMatchObject({
      stake_distance_km: 0,
      counted_instead: { run_id: a.body.data.id, rule: 'overlap' },
    });
    expect(b.body.data.verification.summary).toMatch(
      /^Counted 0 of \d+\.\d\d km toward your stake: it overlaps another run/,
    );
    expect((await outcome('overlap')).progress).toBe(a.body.data.verification.stake_distance_km);
  });

  it('fixes 15 km apart, 1 s apart, with 10 km accuracy (45 km): nothing', async () => {
    await at('2026-11-16T19:00:30Z');
    const call = await as('fuzzy');
    const positions = [0, 1, 2, 3].map((i) => ({
      latitude: 40.6 + 15 * i * DEG_PER_KM,
      longitude: -73.9,
      timestamp: Date.parse('2026-11-16T19:00:00Z') + i * 1000,
      accuracy: 10_000,
    }));
    const res = await call('POST', '/runs', uploadBody('2026-11-16T18:59:00Z', 90, positions));
    expect(res.body.data.verification).toMatchObject({ verdict: 'rejected', stake_distance_km: 0 });
    expect(res.body.data.verification.claimed_distance_km).toBeCloseTo(45, 0);
    expect((await outcome('fuzzy')).progress).toBe(0);
  });

  it('a 2020 track submitted with today’s started_at: nothing', async () => {
    const old = honestTrack('2020-06-01T07:00:00Z', { seed: 17 });
    await at('2026-11-16T19:40:00Z');
    const call = await as('old');
    const res = await call('POST', '/runs', uploadBody('2026-11-16T19:10:00Z', old.durationSec, old.positions));
    expect(res.body.data.verification).toMatchObject({
      verdict: 'rejected',
      stake_distance_km: 0,
      xp_distance_km: 0,
      reasons: ['fix_outside_run_time'],
    });
    expect((await outcome('old')).progress).toBe(0);
  });

  it('an hour at 24 km/h, beyond the one-hour world record (21.33 km): nothing', async () => {
    await at('2026-11-16T21:01:00Z');
    const call = await as('fast');
    const res = await call(
      'POST',
      '/runs',
      uploadBody('2026-11-16T20:00:00Z', 3600, straightTrack('2026-11-16T20:00:00Z', 24, 3600)),
    );
    expect(res.body.data.verification).toMatchObject({ verdict: 'rejected', stake_distance_km: 0 });
    expect(res.body.data.verification.reasons).toContain('faster_than_world_record');
    expect((await outcome('fast')).progress).toBe(0);
  });

  it('gps/start then gps/finish with a made-up 50-minute track: nothing, at once or 50 minutes later', async () => {
    await at('2026-11-16T22:00:00Z');
    let call = await as('session');
    const madeUp = honestTrack('2026-11-16T21:10:00Z', { km: 9, seed: 18 });
    expect((await call('POST', '/runs/gps/start', {})).status).toBe(201);
    const atOnce = await call('POST', '/runs/gps/finish', { positions: madeUp.positions, duration_sec: 3000 });
    expect(atOnce.status).toBe(400); // the session lasted seconds: too short to be a run (§8)
    const start = await call('POST', '/runs/gps/start', {});
    const fake = honestTrack('2026-11-16T22:01:00Z', { km: 9, seed: 19 });
    await at('2026-11-16T22:51:00Z');
    call = await as('session');
    const late = await call('POST', '/runs/gps/finish', {
      session_id: start.body.data.session_id,
      positions: fake.positions,
      duration_sec: 3000,
    });
    expect(late.status).toBe(201);
    expect(late.body.data.verification).toMatchObject({ stake_distance_km: 0, reasons: ['uploaded_late'] });
    expect(late.body.data.verification.xp_distance_km).toBeGreaterThan(8);
    expect((await outcome('session')).progress).toBe(0);
  });

  it('backdating is bounded: 2 years back is refused and earns no halloween_run; 8 days back is refused', async () => {
    await at('2026-11-17T09:00:00Z');
    const call = await as('backdater');
    const halloween = await call('POST', '/runs', runBody('2024-10-31T16:00:00Z', 5));
    expect(halloween.status).toBe(400);
    expect(halloween.body.error).toBe('A run can only be logged within 7 days of its start');
    expect((await call('POST', '/runs', runBody('2026-11-09T08:00:00Z', 5))).status).toBe(400);
    await settle(rt);
    const badges = (await call('GET', '/me/badges')).body;
    expect(JSON.stringify(badges)).not.toContain('halloween_run');
    expect((await call('GET', '/runs')).body.data).toEqual([]);
  });

  it('deleting the run that completed the goal re-opens it; the released hold is never taken back, the audit lists it', async () => {
    await at('2026-11-18T08:31:00Z');
    let call = await as('deleter');
    const runs = [];
    for (const [start, seed] of [
      ['2026-11-18T07:00:00Z', 21],
      ['2026-11-18T07:40:00Z', 22],
    ] as const) {
      const track = honestTrack(start, { km: 5.2, seed });
      runs.push((await call('POST', '/runs', uploadBody(start, track.durationSec, track.positions))).body.data);
    }
    expect(await outcome('deleter')).toMatchObject({ goalStatus: 'completed', stake: 'succeeded' });
    call = await as('deleter');
    expect((await call('DELETE', `/runs/${runs[1].id}`)).status).toBe(200);
    const reopened = await outcome('deleter');
    expect(reopened).toMatchObject({ goalStatus: 'active', stake: 'succeeded' });
    expect(reopened.progress).toBe(runs[0].verification.stake_distance_km);
    // Settlement: the week ends missed, the released stake stays released, and the auditor sees why.
    await at('2026-11-23T05:00:30Z');
    const settled = await outcome('deleter');
    expect(settled).toMatchObject({ goalStatus: 'missed', stake: 'succeeded' });
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    const review = report.review.filter((r) => r.stakeId === `goal-${who('deleter').goalId}`);
    expect(review).toEqual([expect.objectContaining({ goalMet: false, deletedRuns: [runs[1].id] })]);
    // Runs can no longer be added to the settled week.
    call = await as('deleter');
    const lastWeek = await call('POST', '/runs', runBody('2026-11-21T08:00:00Z', 5));
    expect(lastWeek.status).toBe(409);
    expect(lastWeek.body.error).toBe("This run's week has been settled: runs can no longer be added to it");
  });

  it('after settlement: every attacked goal ended missed, and only the deleted completion is left to review', async () => {
    for (const name of ['sparse', 'parallel', 'overlap', 'fuzzy', 'old', 'fast', 'session']) {
      expect((await outcome(name)).goalStatus, name).toBe('missed');
    }
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    expect(report.review.map((r) => r.stakeId)).toEqual([`goal-${who('deleter').goalId}`]);
  });
});
