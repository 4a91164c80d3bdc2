import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GpsPosition, haversineKm, trackLengthKm } from './geo.ts';
import { DEG_PER_KM, phoneTrack } from './track.test-helpers.ts';
import { type RunEvidence, verifyRun } from './verification.ts';
import { verificationLimits as limits } from './verification-policy.ts';
import { worldRecordSpeedKmh } from './world-records.ts';

const T0 = Date.parse('2026-11-17T07:00:00Z');
/** Distances are stored to 2 decimals: comparisons allow one rounding step each side. */
const EPS = 0.011;
// Kept moderate for the suite; each property was run once with numRuns 2000 before it was committed.
const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 100) };

/** The evidence of a track uploaded right after it ended, claiming its own time unless told otherwise. */
function evidence(positions: readonly GpsPosition[], claim?: { startMs: number; sec: number }): RunEvidence {
  const first = positions[0]?.timestamp ?? T0;
  const last = positions[positions.length - 1]?.timestamp ?? T0;
  const startedAtMs = claim?.startMs ?? first;
  const durationSec = claim?.sec ?? (last - first) / 1000;
  return {
    startedAtMs,
    durationSec,
    elapsedSec: null,
    distanceKm: trackLengthKm(positions),
    positions,
    importFlags: null,
    recordedAtMs: startedAtMs + durationSec * 1000 + 10_000,
  };
}

/** An honest runner's phone: 1–10 km at 3:30–8:00/km, fixes every 1–5 s, 5–15 m accuracy, smooth noise. */
const honestArb = fc
  .record({
    km: fc.double({ min: 1, max: 10, noNaN: true }),
    pace: fc.integer({ min: 210, max: 480 }),
    seed: fc.integer(),
    slowest: fc.integer({ min: 1, max: 5 }),
  })
  .map(({ km, pace, seed, slowest }) =>
    phoneTrack({ km, paceSecPerKm: pace, t0: T0, seed, fixEverySec: [1, slowest] }),
  );

/** A jump no runner makes: 2–50 km within 1–60 s. */
const jumpArb = fc.record({ km: fc.double({ min: 2, max: 50, noNaN: true }), sec: fc.integer({ min: 1, max: 60 }) });

/** Anything at all: fixes scattered in space and time, some inaccurate, some received late, claims at random. */
const anyEvidenceArb = fc
  .record({
    fixes: fc.array(
      fc.record({
        dLat: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        dLon: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        t: fc.integer({ min: -7_200, max: 14_400 }),
        accuracy: fc.option(fc.integer({ min: 0, max: 500 })),
        delay: fc.option(fc.integer({ min: 0, max: 3_600 })),
      }),
      { minLength: 2, maxLength: 60 },
    ),
    sorted: fc.boolean(),
    sec: fc.integer({ min: 60, max: 10_800 }),
    uploadDelay: fc.integer({ min: 0, max: 20_000 }),
  })
  .map(({ fixes, sorted, sec, uploadDelay }): RunEvidence => {
    const list = sorted ? [...fixes].sort((a, b) => a.t - b.t) : fixes;
    const positions = list.map((f) => ({
      latitude: 40 + f.dLat,
      longitude: -74 + f.dLon,
      timestamp: T0 + f.t * 1000,
      accuracy: f.accuracy,
      ...(f.delay === null ? {} : { receivedAt: T0 + f.t * 1000 + f.delay * 1000 }),
    }));
    return { ...evidence(positions, { startMs: T0, sec }), recordedAtMs: T0 + (sec + uploadDelay) * 1000 };
  });

/** The distance the dense stretches prove, computed independently of the policy's code. */
function denseProofKm(run: RunEvidence): number {
  const tol = limits.fixTimeToleranceSec * 1000;
  const end = run.startedAtMs + run.durationSec * 1000;
  const accepted: GpsPosition[] = [];
  for (const p of run.positions) {
    if (p.timestamp < run.startedAtMs - tol || p.timestamp > end + tol) continue;
    if ((p.accuracy ?? 0) > limits.maxFixAccuracyM) continue;
    const last = accepted[accepted.length - 1];
    if (last && p.timestamp <= last.timestamp) continue;
    accepted.push(p);
  }
  let km = 0;
  for (let i = 1; i < accepted.length; i++) {
    if (accepted[i]!.timestamp - accepted[i - 1]!.timestamp <= limits.maxDenseGapSec * 1000) {
      km += haversineKm(accepted[i - 1]!, accepted[i]!);
    }
  }
  return km;
}

describe('property: an honest phone track earns its distance', () => {
  it('is verified, all of its distance counts toward a stake, and that distance is the true one within 6%', () => {
    fc.assert(
      fc.property(honestArb, (run) => {
        const v = verifyRun(evidence(run.positions));
        expect(v.verdict).toBe('verified');
        expect(v.stakeDistanceKm).toBe(v.claimedDistanceKm);
        expect(Math.abs(v.claimedDistanceKm - run.trueKm)).toBeLessThanOrEqual(0.06 * run.trueKm + EPS);
      }),
      RUNS,
    );
  });
});

describe('property: adding a teleport or a sparse stretch never adds stake distance', () => {
  const notMore = (before: RunEvidence, after: RunEvidence, { flagged = true } = {}) => {
    const a = verifyRun(before);
    const b = verifyRun(after);
    expect(b.stakeDistanceKm).toBeLessThanOrEqual(a.stakeDistanceKm + EPS);
    if (flagged) expect(b.verdict).not.toBe('verified');
  };

  it('a jump appended at the end', () => {
    fc.assert(
      fc.property(honestArb, jumpArb, (run, jump) => {
        const last = run.positions[run.positions.length - 1]!;
        const far = {
          ...last,
          latitude: last.latitude + jump.km * DEG_PER_KM,
          timestamp: last.timestamp + jump.sec * 1000,
        };
        notMore(evidence(run.positions), evidence([...run.positions, far]));
      }),
      RUNS,
    );
  });

  it('a detour inserted in the middle', () => {
    fc.assert(
      fc.property(honestArb, jumpArb, fc.nat(), (run, jump, at) => {
        const i = 1 + (at % (run.positions.length - 1));
        const prev = run.positions[i - 1]!;
        const next = run.positions[i]!;
        const detour = {
          ...prev,
          longitude: prev.longitude + jump.km * DEG_PER_KM * 1.4,
          timestamp: (prev.timestamp + next.timestamp) / 2,
        };
        const claim = { startMs: run.positions[0]!.timestamp, sec: run.durationSec };
        notMore(
          evidence(run.positions, claim),
          evidence([...run.positions.slice(0, i), detour, ...run.positions.slice(i)], claim),
        );
      }),
      RUNS,
    );
  });

  it('a sparse stretch (one fix after a gap of 1–180 min, at any speed) appended at the end', () => {
    fc.assert(
      fc.property(
        honestArb,
        fc.integer({ min: 61, max: 10_800 }),
        fc.double({ min: 0, max: 40, noNaN: true }),
        (run, gapSec, kmh) => {
          const last = run.positions[run.positions.length - 1]!;
          const far = {
            ...last,
            latitude: last.latitude + ((kmh * gapSec) / 3600) * DEG_PER_KM,
            timestamp: last.timestamp + gapSec * 1000,
          };
          // A gap over which the runner stood still loses nothing, so it need not be flagged.
          notMore(evidence(run.positions), evidence([...run.positions, far]), { flagged: kmh * gapSec > 3600 * 0.01 });
        },
      ),
      RUNS,
    );
  });
});

describe('property: the three distances', () => {
  it('stake ≤ XP ≤ claimed, never negative, whatever the evidence', () => {
    fc.assert(
      fc.property(anyEvidenceArb, (run) => {
        const v = verifyRun(run);
        expect(v.stakeDistanceKm).toBeGreaterThanOrEqual(0);
        expect(v.stakeDistanceKm).toBeLessThanOrEqual(v.trustedDistanceKm);
        expect(v.trustedDistanceKm).toBeLessThanOrEqual(v.claimedDistanceKm);
        const stretches = v.stakeStretches.reduce((sum, s) => sum + s.km, 0);
        expect(stretches).toBeLessThanOrEqual(v.stakeDistanceKm + EPS * v.stakeStretches.length);
      }),
      RUNS,
    );
  });

  it('stake distance never exceeds what the dense stretches of accurate, in-time fixes prove', () => {
    fc.assert(
      fc.property(anyEvidenceArb, (run) => {
        expect(verifyRun(run).stakeDistanceKm).toBeLessThanOrEqual(denseProofKm(run) + EPS);
      }),
      RUNS,
    );
  });

  it('any speed beyond world-record pace for its duration earns no stake distance', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 4 * 3600 }),
        fc.double({ min: 1.01, max: 2, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        (sec, factor, step) => {
          const steps = Math.floor(sec / step);
          const kmh = worldRecordSpeedKmh(steps * step) * factor;
          const positions = Array.from({ length: steps + 1 }, (_, i) => ({
            latitude: 40 + ((kmh * step * i) / 3600) * DEG_PER_KM,
            longitude: -74,
            timestamp: T0 + i * step * 1000,
            accuracy: 5,
          }));
          const v = verifyRun(evidence(positions));
          expect(v.stakeDistanceKm).toBe(0);
          expect(v.trustedDistanceKm).toBe(0);
        },
      ),
      RUNS,
    );
  });

  it('fixes timestamped outside the claimed time never count, wherever they are inserted', () => {
    fc.assert(
      fc.property(
        honestArb,
        fc.array(
          fc.record({
            at: fc.nat(),
            sec: fc.oneof(fc.integer({ min: -500_000, max: -121 }), fc.integer({ min: 121, max: 500_000 })),
            km: fc.double({ min: 0, max: 30, noNaN: true }),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        (run, extras) => {
          const claim = { startMs: run.positions[0]!.timestamp, sec: run.durationSec };
          const endMs = claim.startMs + claim.sec * 1000;
          const positions = [...run.positions];
          for (const e of extras) {
            const anchor = e.sec < 0 ? claim.startMs : endMs;
            positions.splice(e.at % (positions.length + 1), 0, {
              latitude: 40.7 + e.km * DEG_PER_KM,
              longitude: -74,
              timestamp: anchor + e.sec * 1000,
              accuracy: 5,
            });
          }
          const before = verifyRun(evidence(run.positions, claim));
          const after = verifyRun(evidence(positions, claim));
          expect(after.stakeDistanceKm).toBe(before.stakeDistanceKm);
          expect(after.trustedDistanceKm).toBe(before.trustedDistanceKm);
        },
      ),
      RUNS,
    );
  });
});
