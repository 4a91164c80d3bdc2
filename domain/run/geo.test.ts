import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpsDistanceKm, haversineKm } from './geo.ts';
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

  it('property: triangle inequality', () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        expect(haversineKm(a, c)).toBeLessThanOrEqual(haversineKm(a, b) + haversineKm(b, c) + 1e-9);
      }),
    );
  });
});
