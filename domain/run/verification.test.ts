import { describe, expect, it } from 'vitest';
import { countedDistanceKm } from './counting.ts';
import { type GpsPosition, trackLengthKm } from './geo.ts';
import { DEG_PER_KM, phoneTrack, track } from './track.test-helpers.ts';
import { type ImportFlags, type RunEvidence, verifyRun } from './verification.ts';

const T0 = Date.parse('2026-11-17T07:00:00Z');

/** A track uploaded whole right after it ended (POST /runs), claiming exactly the track's own time. */
const uploaded = (positions: readonly GpsPosition[], over: Partial<RunEvidence> = {}): RunEvidence => {
  const first = positions[0]?.timestamp ?? T0;
  const last = positions[positions.length - 1]?.timestamp ?? T0;
  return {
    startedAtMs: first,
    durationSec: (last - first) / 1000,
    elapsedSec: null,
    distanceKm: trackLengthKm(positions),
    positions,
    importFlags: null,
    recordedAtMs: last + 10_000,
    ...over,
  };
};
const flags = (over: Partial<ImportFlags> = {}): ImportFlags => ({
  manual: false,
  trainer: false,
  flagged: false,
  sportType: 'Run',
  ...over,
});
const imported = (distanceKm: number, durationSec: number, f: Partial<ImportFlags> = {}): RunEvidence => ({
  startedAtMs: T0,
  durationSec,
  elapsedSec: durationSec,
  distanceKm,
  positions: [],
  importFlags: flags(f),
  recordedAtMs: T0 + 86_400_000,
});
const honest = (seed = 1, glitches: Parameters<typeof phoneTrack>[0]['glitches'] = []) =>
  phoneTrack({ km: 5, paceSecPerKm: 330, t0: T0, seed, glitches });

describe('run verification: an honest phone track', () => {
  it('5 km at 5:30/km, fixes every 1–5 s at 5–15 m: verified, all of it counts toward a stake', () => {
    const run = honest();
    const v = verifyRun(uploaded(run.positions));
    expect(v).toMatchObject({ verdict: 'verified', reasons: [], excluded: [], policyVersion: 2 });
    expect(v.stakeDistanceKm).toBe(v.claimedDistanceKm);
    expect(v.trustedDistanceKm).toBe(v.claimedDistanceKm);
    expect(v.claimedDistanceKm).toBeCloseTo(run.trueKm, 0);
    expect(Math.abs(v.claimedDistanceKm - run.trueKm) / run.trueKm).toBeLessThan(0.05);
    expect(countedDistanceKm(v, 'staked_goal')).toBe(v.stakeDistanceKm);
  });

  it('a 45 s loss of signal and a 300 m spike: the spike is dropped and the run still earns its distance', () => {
    const run = honest(2, [
      { kind: 'gap', atSec: 600, sec: 45 },
      { kind: 'spike', atSec: 1200, metres: 300 },
    ]);
    const v = verifyRun(uploaded(run.positions));
    expect(v.reasons).toEqual(['teleport_segment']);
    expect(v.excluded).toEqual([expect.objectContaining({ reason: 'teleport_segment', fixes: 1 })]);
    expect(Math.abs(v.stakeDistanceKm - run.trueKm) / run.trueKm).toBeLessThan(0.05);
  });

  it('a 6-minute gap is left out of the stake, the rest counts; XP keeps the gap', () => {
    const run = honest(3, [{ kind: 'gap', atSec: 900, sec: 360 }]);
    const v = verifyRun(uploaded(run.positions));
    expect(v.reasons).toEqual(['sparse_gps']);
    const gap = v.excluded.find((p) => p.reason === 'sparse_gps')!;
    expect(gap.stretches).toBe(1);
    expect(gap.sec).toBeGreaterThanOrEqual(360);
    expect(gap.sec).toBeLessThan(372);
    expect(v.stakeDistanceKm).toBeCloseTo(v.claimedDistanceKm - gap.km, 1);
    expect(v.stakeDistanceKm).toBeGreaterThan(3.5);
    expect(v.trustedDistanceKm).toBe(v.claimedDistanceKm);
    expect(v.stakeStretches).toHaveLength(2);
  });
});

describe('run verification: the attacks of issue 11', () => {
  it('2 fixes 31 km and 3 hours apart prove nothing', () => {
    const positions = [
      { latitude: 40, longitude: -74, timestamp: T0, accuracy: 5 },
      { latitude: 40 + 31 * DEG_PER_KM, longitude: -74, timestamp: T0 + 3 * 3_600_000, accuracy: 5 },
    ];
    const v = verifyRun(uploaded(positions));
    expect(v).toMatchObject({ verdict: 'rejected', stakeDistanceKm: 0, trustedDistanceKm: 0, reasons: ['sparse_gps'] });
    expect(v.claimedDistanceKm).toBeCloseTo(31, 1);
  });

  it('fixes 15 km apart 1 s apart with 10 km accuracy are discarded', () => {
    const positions = [0, 1, 2, 3].map((i) => ({
      latitude: 40 + 15 * i * DEG_PER_KM,
      longitude: -74,
      timestamp: T0 + i * 1000,
      accuracy: 10_000,
    }));
    const v = verifyRun(uploaded(positions, { durationSec: 3600 }));
    expect(v.claimedDistanceKm).toBeCloseTo(45, 0);
    expect(v).toMatchObject({ verdict: 'rejected', stakeDistanceKm: 0, trustedDistanceKm: 0 });
    expect(v.reasons).toContain('inaccurate_gps');
  });

  it('a 2020 track sent with today’s start counts nowhere', () => {
    const old = phoneTrack({ km: 5, paceSecPerKm: 330, t0: Date.parse('2020-06-01T07:00:00Z'), seed: 4 });
    const v = verifyRun(uploaded(old.positions, { startedAtMs: T0, recordedAtMs: T0 + 1_900_000 }));
    expect(v).toMatchObject({ verdict: 'rejected', stakeDistanceKm: 0, trustedDistanceKm: 0 });
    expect(v.reasons).toEqual(['fix_outside_run_time']);
    expect(v.excluded[0]).toMatchObject({ reason: 'fix_outside_run_time', fixes: old.positions.length });
  });

  it('an hour at 24 km/h beats the one-hour world record (21.33 km): nothing counts', () => {
    const v = verifyRun(uploaded(track(24, 721, 5, 8, T0)));
    expect(v.claimedDistanceKm).toBeCloseTo(24, 1);
    expect(v).toMatchObject({ verdict: 'rejected', stakeDistanceKm: 0, trustedDistanceKm: 0 });
    expect(v.reasons).toEqual(['faster_than_world_record', 'vehicle_distance']);
  });

  it('20 minutes at 22 km/h is no record but is cycling: XP only', () => {
    const v = verifyRun(uploaded(track(22, 241, 5, 8, T0)));
    expect(v.reasons).toEqual(['cycling_speed']);
    expect(v.stakeDistanceKm).toBe(0);
    expect(v.trustedDistanceKm).toBeCloseTo(7.33, 1);
  });

  it('a track uploaded 3 hours after the run is late: XP and free goals only', () => {
    const run = honest(5);
    const v = verifyRun(uploaded(run.positions, { recordedAtMs: T0 + run.durationSec * 1000 + 3 * 3_600_000 }));
    expect(v.reasons).toEqual(['uploaded_late']);
    expect(v.stakeDistanceKm).toBe(0);
    expect(v.trustedDistanceKm).toBe(v.claimedDistanceKm);
  });

  it('a live session: the stretch that reached the server late is left out of the stake, the rest counts', () => {
    const run = honest(6);
    const offlineFrom = T0 + 600_000;
    const offlineTo = T0 + 1_200_000;
    const positions = run.positions.map((p) => ({
      ...p,
      receivedAt: p.timestamp >= offlineFrom && p.timestamp < offlineTo ? offlineTo + 5_000 : p.timestamp + 15_000,
    }));
    const v = verifyRun(uploaded(positions));
    expect(v.reasons).toEqual(['uploaded_late']);
    // Offline for 10 minutes: what was taken in its last 5 minutes still arrived within the 5-minute allowance.
    const late = v.excluded.find((p) => p.reason === 'uploaded_late')!;
    expect(late.sec).toBeGreaterThan(290);
    expect(late.sec).toBeLessThan(315);
    expect(v.stakeDistanceKm).toBeCloseTo(v.claimedDistanceKm - late.km, 1);
    expect(v.stakeDistanceKm).toBeGreaterThan(2.5);
  });

  it('a session that uploaded nothing before its finish sent its track all at once: none of it counts toward a stake', () => {
    const run = honest(8);
    const finish = run.positions.at(-1)!.timestamp + 2000;
    const atOnce = run.positions.map((p) => ({ ...p, receivedAt: finish }));
    const v = verifyRun({ ...uploaded(atOnce), recordedAtMs: finish });
    expect(v.reasons).toEqual(['uploaded_late']);
    expect(v.stakeDistanceKm).toBe(0);
    expect(v.trustedDistanceKm).toBe(v.claimedDistanceKm);
    // The same fixes uploaded every 15 s, and only the last seconds with the finish: all of it counts.
    const live = run.positions.map((p) => ({ ...p, receivedAt: Math.min(p.timestamp + 15_000, finish) }));
    expect(verifyRun({ ...uploaded(live), recordedAtMs: finish }).stakeDistanceKm).toBe(v.claimedDistanceKm);
  });
});

describe('run verification: doubts about the activity', () => {
  it('walking pace counts for a free goal, not toward a stake', () => {
    const v = verifyRun(uploaded(track(4, 361, 5, 8, T0)));
    expect(v.reasons).toEqual(['walking_pace']);
    expect(countedDistanceKm(v, 'staked_goal')).toBe(0);
    expect(countedDistanceKm(v, 'free_goal_or_xp')).toBe(2);
    expect(countedDistanceKm(v, 'staked_goal') > 0).toBe(false);
  });

  it('imported runs: the service’s flags, no track, faster than the record', () => {
    expect(verifyRun(imported(5, 1800)).reasons).toEqual(['no_gps_track']);
    expect(verifyRun(imported(5, 1800)).stakeDistanceKm).toBe(0);
    expect(verifyRun(imported(5, 1800)).trustedDistanceKm).toBe(5);
    expect(verifyRun(imported(5, 1800, { manual: true })).reasons).toEqual(['manual_entry', 'no_gps_track']);
    expect(verifyRun(imported(5, 1800, { trainer: true })).verdict).toBe('suspicious');
    expect(verifyRun(imported(5, 1800, { sportType: 'VirtualRun' })).reasons).toContain('indoor_trainer');
    expect(verifyRun(imported(5, 1800, { flagged: true })).verdict).toBe('rejected');
    expect(verifyRun(imported(20, 1800, { sportType: 'Ride' })).reasons).toContain('not_a_run');
    expect(verifyRun(imported(10, 1200))).toMatchObject({
      verdict: 'rejected',
      reasons: ['faster_than_world_record', 'no_gps_track'],
    });
    const tracked = phoneTrack({ km: 5, paceSecPerKm: 300, t0: T0, seed: 7 });
    const withTrack = verifyRun({ ...imported(5, 1500), positions: tracked.positions, elapsedSec: 1560 });
    expect(withTrack).toMatchObject({ verdict: 'verified', reasons: [] });
    expect(withTrack.stakeDistanceKm).toBeGreaterThan(4.8);
  });

  it('version 1 verdicts keep their own counting rule', () => {
    const v1 = { verdict: 'suspicious', reasons: ['sparse_gps'], trustedDistanceKm: 31, policyVersion: 1 } as const;
    expect(countedDistanceKm(v1, 'staked_goal')).toBe(31);
    expect(countedDistanceKm({ ...v1, reasons: ['walking_pace'] }, 'staked_goal')).toBe(0);
  });
});
