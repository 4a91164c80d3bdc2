import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_SPAN_KM, pathData, projectRoute, thinTrack } from './route-projection.ts';

const EPS = 1e-6;
const fix = fc.record({
  latitude: fc.double({ min: -70, max: 70, noNaN: true }),
  longitude: fc.double({ min: -179, max: 179, noNaN: true }),
});
/** A run-sized track: fixes within about ±5 km of a start point. */
const track = fc
  .tuple(
    fix,
    fc.array(
      fc.tuple(fc.double({ min: -0.05, max: 0.05, noNaN: true }), fc.double({ min: -0.05, max: 0.05, noNaN: true })),
      {
        minLength: 1,
        maxLength: 200,
      },
    ),
  )
  .map(([start, offsets]) =>
    offsets.map(([dLat, dLon]) => ({ latitude: start.latitude + dLat, longitude: start.longitude + dLon })),
  );
const box = fc.record({
  width: fc.integer({ min: 20, max: 800 }),
  height: fc.integer({ min: 20, max: 800 }),
  padding: fc.integer({ min: 0, max: 9 }),
});

describe('projectRoute', () => {
  it('puts every point inside the box, within its padding', () => {
    fc.assert(
      fc.property(track, box, (t, b) => {
        for (const p of projectRoute(t, b)) {
          expect(p.x).toBeGreaterThanOrEqual(b.padding - EPS);
          expect(p.x).toBeLessThanOrEqual(b.width - b.padding + EPS);
          expect(p.y).toBeGreaterThanOrEqual(b.padding - EPS);
          expect(p.y).toBeLessThanOrEqual(b.height - b.padding + EPS);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('fills the box along at least one axis (a track wider and taller than the smallest span) and is centred on both', () => {
    fc.assert(
      fc.property(track, box, (t, b) => {
        const points = projectRoute(t, b);
        const xs = points.map((p) => p.x);
        const ys = points.map((p) => p.y);
        const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
        expect((minX + maxX) / 2).toBeCloseTo(b.width / 2, 4);
        expect((minY + maxY) / 2).toBeCloseTo(b.height / 2, 4);
        // Ground spans in km (a degree of latitude is about 111.2 km).
        const lats = t.map((p) => p.latitude);
        const lons = t.map((p) => p.longitude);
        const cos = Math.cos((((Math.min(...lats) + Math.max(...lats)) / 2) * Math.PI) / 180);
        const spanKm = Math.min(
          (Math.max(...lats) - Math.min(...lats)) * 111.19,
          (Math.max(...lons) - Math.min(...lons)) * 111.19 * cos,
        );
        if (spanKm > MIN_SPAN_KM * 1.01) {
          const fillsX = Math.abs(maxX - minX - (b.width - 2 * b.padding)) < 1e-6;
          const fillsY = Math.abs(maxY - minY - (b.height - 2 * b.padding)) < 1e-6;
          expect(fillsX || fillsY).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps north up and east right, with one scale on both axes (a square stays a square)', () => {
    const lat = 51.5;
    const dLat = 0.01;
    // The same ground distance east as north at this latitude.
    const dLon = dLat / Math.cos((lat * Math.PI) / 180);
    const square = [
      { latitude: lat, longitude: 0 },
      { latitude: lat + dLat, longitude: 0 },
      { latitude: lat + dLat, longitude: dLon },
      { latitude: lat, longitude: dLon },
    ];
    const [sw, nw, ne, se] = projectRoute(square, { width: 300, height: 200, padding: 10 });
    expect(nw!.y).toBeLessThan(sw!.y);
    expect(se!.x).toBeGreaterThan(sw!.x);
    expect(ne!.x - nw!.x).toBeCloseTo(sw!.y - nw!.y, 1);
    expect(sw!.y - nw!.y).toBeCloseTo(180, 6);
  });

  it('leaves out fixes without finite coordinates', () => {
    const track = [
      { latitude: Number.NaN, longitude: 0 },
      { latitude: 1, longitude: 1 },
      { latitude: 1.01, longitude: Number.POSITIVE_INFINITY },
    ];
    expect(projectRoute(track, { width: 100, height: 60, padding: 5 })).toEqual([{ x: 50, y: 30 }]);
  });

  it('draws a track of a few metres small, not blown up to fill the box', () => {
    const jitter = [
      { latitude: 40, longitude: -73 },
      { latitude: 40.00001, longitude: -73.00001 },
    ];
    const [a, b] = projectRoute(jitter, { width: 200, height: 200, padding: 0 });
    expect(Math.hypot(a!.x - b!.x, a!.y - b!.y)).toBeLessThan(10);
  });

  it('puts a single point, or a track that never moved, in the middle', () => {
    const still = [
      { latitude: 40, longitude: -73 },
      { latitude: 40, longitude: -73 },
    ];
    for (const p of projectRoute(still, { width: 100, height: 60, padding: 5 })) expect(p).toEqual({ x: 50, y: 30 });
    expect(projectRoute([], { width: 100, height: 60, padding: 5 })).toEqual([]);
  });
});

describe('pathData and thinTrack', () => {
  it('draws a path that moves once and then draws lines', () => {
    expect(
      pathData([
        { x: 1, y: 2 },
        { x: 3.25, y: 4 },
      ]),
    ).toBe('M1.0 2.0 L3.3 4.0');
  });

  it('keeps at most max points, the first and the last among them, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { minLength: 0, maxLength: 2_000 }),
        fc.integer({ min: 2, max: 300 }),
        (list, max) => {
          const thin = thinTrack(list, max);
          expect(thin.length).toBe(Math.min(list.length, max));
          if (list.length > 0) {
            expect(thin[0]).toBe(list[0]);
            expect(thin[thin.length - 1]).toBe(list[list.length - 1]);
          }
          const indexes = thin.map((v, i) => (list.length <= max ? i : list.indexOf(v)));
          expect(indexes.length).toBe(thin.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
