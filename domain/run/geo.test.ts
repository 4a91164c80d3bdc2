import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_KM, gpsDistanceKm, haversineKm } from './geo.ts';
import { track } from './track.test-helpers.ts';

const point = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('haversine', () => {
  it('gives known distances on the 6371 km sphere', () => {
    expect(haversineKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 })).toBeCloseTo(111.195, 3);
    // New York to London, about 5570 km.
    expect(
      haversineKm({ latitude: 40.7128, longitude: -74.006 }, { latitude: 51.5074, longitude: -0.1278 }),
    ).toBeCloseTo(5570, -1);
  });

  it('a GPS run distance is the track length to 2 decimals', () => {
    expect(gpsDistanceKm(track(12, 121))).toBe(2); // 10 minutes at 12 km/h
    expect(gpsDistanceKm(track(12, 1))).toBe(0);
  });

  it('property: symmetric, non-negative, zero to itself, bounded by half the circumference', () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        const d = haversineKm(a, b);
        expect(d).toBe(haversineKm(b, a));
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.PI * 6371 + 1e-9);
        expect(haversineKm(a, a)).toBe(0);
      }),
    );
  });

  it('property: triangle inequality, within the float error of asin near the antipode', () => {
    // haversine returns 2R·asin(√h). Where h → 1 (two points nearly antipodal) asin's slope is unbounded and an error
    // of a few ε in h becomes about √ε of the result: each distance is exact only to ~√ε relative to the half
    // circumference πR (seed 215115037 was 1.1e-5 km over at 20015 km, 0.04·√ε·πR; 300,000 runs peak at 0.4·√ε·πR).
    // Three distances meet in the comparison, so 4·√ε·πR (about 1.2 m) is the tolerance.
    const tolerance = 4 * Math.sqrt(Number.EPSILON) * Math.PI * EARTH_RADIUS_KM;
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        expect(haversineKm(a, c)).toBeLessThanOrEqual(haversineKm(a, b) + haversineKm(b, c) + tolerance);
      }),
      { numRuns: 1000 },
    );
  });

  it('triangle inequality at an antipodal pair (the equality case, where the float error peaks)', () => {
    const a = { latitude: 0, longitude: 0 };
    const c = { latitude: 1e-9, longitude: -179.99999999999974 };
    const b = { latitude: -6.2e-7, longitude: 0 };
    const slack = haversineKm(a, b) + haversineKm(b, c) - haversineKm(a, c);
    expect(Math.abs(slack)).toBeLessThan(4 * Math.sqrt(Number.EPSILON) * Math.PI * EARTH_RADIUS_KM);
  });
});
