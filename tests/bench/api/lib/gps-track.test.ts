import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpsDistanceKm, haversineKm } from '../../../../domain/run/geo.ts';
import { verificationLimits, verifyRun } from '../../../../domain/run/verification.ts';
import { seededRandom } from '../../../contract/support/seeded-random.ts';
import { generateTrack, runBody } from './gps-track.ts';

const specs = fc.record({
  seed: fc.integer(),
  latitude: fc.double({ min: -60, max: 60, noNaN: true }),
  longitude: fc.double({ min: -179, max: 179, noNaN: true }),
  distanceKm: fc.double({ min: 1, max: 12, noNaN: true }),
  paceSecPerKm: fc.double({ min: 240, max: 420, noNaN: true }),
});

type Spec = { seed: number; latitude: number; longitude: number; distanceKm: number; paceSecPerKm: number };

const dense = (s: Spec) =>
  generateTrack({
    start: { latitude: s.latitude, longitude: s.longitude },
    startMs: 1_790_000_000_000,
    distanceKm: s.distanceKm,
    paceSecPerKm: s.paceSecPerKm,
    fixEverySec: [1, 5],
    random: seededRandom(s.seed).next,
  });

describe('generated GPS tracks', () => {
  it('cover the asked distance at the asked pace, with a fix every 1–5 s', () => {
    fc.assert(
      fc.property(specs, (s) => {
        const track = dense(s);
        expect(gpsDistanceKm(track)).toBeCloseTo(s.distanceKm, 1);
        const seconds = (track.at(-1)!.timestamp - track[0]!.timestamp) / 1000;
        expect(seconds / s.distanceKm).toBeGreaterThan(s.paceSecPerKm * 0.9);
        expect(seconds / s.distanceKm).toBeLessThan(s.paceSecPerKm * 1.1);
        for (let i = 1; i < track.length; i++) {
          const gap = (track[i]!.timestamp - track[i - 1]!.timestamp) / 1000;
          // The last step may be short: it stops at the distance.
          if (i < track.length - 1) expect(gap).toBeGreaterThanOrEqual(0.99);
          expect(gap).toBeLessThanOrEqual(5.01);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('are verified by the product’s own rule: no teleport, accurate, not walking, no gap', () => {
    fc.assert(
      fc.property(specs, (s) => {
        const track = dense(s);
        const startedAtMs = track[0]!.timestamp;
        const endedAtMs = track[track.length - 1]!.timestamp;
        const verdict = verifyRun({
          startedAtMs,
          durationSec: (endedAtMs - startedAtMs) / 1000,
          elapsedSec: null,
          distanceKm: gpsDistanceKm(track),
          positions: track,
          importFlags: null,
          recordedAtMs: endedAtMs + 1000,
        });
        expect(verdict).toMatchObject({ verdict: 'verified', reasons: [] });
        for (let i = 1; i < track.length; i++) {
          const kmh =
            haversineKm(track[i - 1]!, track[i]!) / ((track[i]!.timestamp - track[i - 1]!.timestamp) / 3_600_000);
          expect(kmh).toBeLessThan(verificationLimits.cyclingSpeedKmh);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('end nearer home than half the distance (out and back), and are reproducible from the seed', () => {
    fc.assert(
      fc.property(specs, (s) => {
        const track = dense(s);
        expect(haversineKm(track[0]!, track.at(-1)!)).toBeLessThan(s.distanceKm / 2);
        expect(dense(s)).toEqual(track);
      }),
      { numRuns: 100 },
    );
  });

  it('make a POST /runs body whose duration is the track’s span', () => {
    const track = dense({ seed: 1, latitude: 48.85, longitude: 2.35, distanceKm: 5, paceSecPerKm: 330 });
    const body = runBody(track, 5);
    expect(body.duration_sec).toBe(Math.round((track.at(-1)!.timestamp - track[0]!.timestamp) / 1000));
    expect(body.started_at).toBe(new Date(track[0]!.timestamp).toISOString());
    expect(body.gps_data.positions).toHaveLength(track.length);
  });
});
