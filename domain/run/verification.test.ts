import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countedDistanceKm, countsAsRun } from './counting.ts';
import { type GpsPosition, trackLengthKm } from './geo.ts';
import { DEG_PER_KM, track } from './track.test-helpers.ts';
import { type ImportFlags, type RunEvidence, verdictRank, verifyRun } from './verification.ts';

const gps = (positions: GpsPosition[]): RunEvidence => ({
  distanceKm: trackLengthKm(positions),
  durationSec: 0,
  positions,
  importFlags: null,
});
const flags = (over: Partial<ImportFlags> = {}): ImportFlags => ({
  manual: false,
  trainer: false,
  flagged: false,
  sportType: 'Run',
  ...over,
});
const imported = (distanceKm: number, durationSec: number, f: Partial<ImportFlags> = {}): RunEvidence => ({
  distanceKm,
  durationSec,
  positions: [],
  importFlags: flags(f),
});

describe('run verification', () => {
  it('a clean 10 km/h run is verified and counts everywhere', () => {
    const v = verifyRun(gps(track(10, 361)));
    expect(v).toMatchObject({ verdict: 'verified', reasons: [], trustedDistanceKm: 5, policyVersion: 1 });
    expect(countedDistanceKm(v, 'staked_goal')).toBe(5);
  });

  it('one GPS jump is cut out: suspicious, the rest still counts for a stake', () => {
    const t = track(10, 361);
    const jumped = [...t.slice(0, 180), { ...t[180]!, latitude: t[180]!.latitude + 0.5 * DEG_PER_KM }, ...t.slice(181)];
    const v = verifyRun(gps(jumped));
    expect(v.verdict).toBe('suspicious');
    expect(v.reasons).toEqual(['teleport_segment']);
    expect(v.trustedDistanceKm).toBeLessThan(5);
    expect(countedDistanceKm(v, 'staked_goal')).toBe(v.trustedDistanceKm);
  });

  it('jitter between fuzzy close fixes is not a teleport', () => {
    const t = track(10, 61).map((p, i) =>
      i === 30 ? { ...p, latitude: p.latitude + 0.02 * DEG_PER_KM, accuracy: 20 } : p,
    );
    expect(verifyRun(gps(t)).reasons).toEqual([]);
  });

  it('a ride in a car is rejected', () => {
    const run = [
      ...track(10, 121),
      ...track(60, 121, 5, 8, 1_741_600_000_000 + 605_000).map((p) => ({
        ...p,
        latitude: p.latitude + 2 * DEG_PER_KM,
      })),
    ];
    const v = verifyRun(gps(run));
    expect(v.verdict).toBe('rejected');
    expect(v.reasons).toContain('vehicle_distance');
    expect(countedDistanceKm(v, 'free_goal_or_xp')).toBe(0);
  });

  it('walking pace is suspicious and does not count toward a stake, but does toward a free goal', () => {
    const v = verifyRun(gps(track(4, 361)));
    expect(v.reasons).toEqual(['walking_pace']);
    expect(countedDistanceKm(v, 'staked_goal')).toBe(0);
    expect(countedDistanceKm(v, 'free_goal_or_xp')).toBe(2);
    expect(countsAsRun(v, 'staked_goal')).toBe(false);
  });

  it('poor accuracy and holes in the track are GPS glitches', () => {
    expect(verifyRun(gps(track(10, 121, 5, 80))).reasons).toEqual(['inaccurate_gps']);
    expect(verifyRun(gps(track(10, 11, 150))).reasons).toEqual(['sparse_gps']);
  });

  it('imported runs: flags from the service', () => {
    expect(verifyRun(imported(5, 1800)).reasons).toEqual(['no_gps_track']);
    expect(verifyRun(imported(5, 1800, { manual: true })).reasons).toEqual(['manual_entry', 'no_gps_track']);
    expect(verifyRun(imported(5, 1800, { trainer: true })).verdict).toBe('suspicious');
    expect(verifyRun(imported(5, 1800, { sportType: 'VirtualRun' })).reasons).toContain('indoor_trainer');
    expect(verifyRun(imported(5, 1800, { flagged: true })).verdict).toBe('rejected');
    expect(verifyRun(imported(20, 1800, { sportType: 'Ride' })).reasons).toContain('not_a_run');
    expect(verifyRun(imported(10, 1200)).reasons).toContain('faster_than_world_record');
    expect(verifyRun({ ...imported(5, 1500), positions: track(12, 301) }).verdict).toBe('verified');
  });
});

/** A plausible run: speed 8–16 km/h, fixes every 1–10 s, accuracy 3–80 m. */
const runArb = fc
  .record({
    kmh: fc.double({ min: 5, max: 16, noNaN: true }),
    fixes: fc.integer({ min: 2, max: 200 }),
    step: fc.integer({ min: 1, max: 150 }),
    accuracy: fc.integer({ min: 3, max: 80 }),
  })
  .map(({ kmh, fixes, step, accuracy }) => track(kmh, fixes, step, accuracy));

/** A jump of 2–50 km within 1–60 s: no runner does that. */
const jumpArb = fc.record({ km: fc.double({ min: 2, max: 50, noNaN: true }), sec: fc.integer({ min: 1, max: 60 }) });

function assertNotMoreTrusted(before: RunEvidence, after: RunEvidence) {
  const a = verifyRun(before);
  const b = verifyRun(after);
  expect(verdictRank(b.verdict)).toBeGreaterThanOrEqual(verdictRank(a.verdict));
  expect(b.verdict).not.toBe('verified');
  for (const context of ['staked_goal', 'free_goal_or_xp'] as const) {
    expect(countedDistanceKm(b, context)).toBeLessThanOrEqual(countedDistanceKm(a, context) + 0.011);
  }
}

describe('property: adding a teleport segment never makes a run more trusted', () => {
  it('appended at the end', () => {
    fc.assert(
      fc.property(runArb, jumpArb, (run, jump) => {
        const last = run[run.length - 1]!;
        const teleported = {
          ...last,
          latitude: last.latitude + jump.km * DEG_PER_KM,
          timestamp: last.timestamp + jump.sec * 1000,
          accuracy: 10,
        };
        assertNotMoreTrusted(gps(run), gps([...run, teleported]));
      }),
      { numRuns: 300 },
    );
  });

  it('inserted as a detour in the middle', () => {
    fc.assert(
      fc.property(runArb, jumpArb, fc.nat(), (run, jump, at) => {
        const i = 1 + (at % (run.length - 1));
        const prev = run[i - 1]!;
        const next = run[i]!;
        const mid = (prev.timestamp + next.timestamp) / 2;
        const detour = {
          ...prev,
          longitude: prev.longitude + jump.km * DEG_PER_KM * 1.4,
          timestamp: mid,
          accuracy: 10,
        };
        assertNotMoreTrusted(gps(run), gps([...run.slice(0, i), detour, ...run.slice(i)]));
      }),
      { numRuns: 300 },
    );
  });
});
