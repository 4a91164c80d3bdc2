import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leastSquaresSlope, percentile } from './stats.ts';

const samples = fc.array(fc.double({ min: 0, max: 10_000, noNaN: true }), { minLength: 1, maxLength: 200 });

describe('percentile (nearest rank)', () => {
  it('is one of the samples, between the smallest and the largest', () => {
    fc.assert(
      fc.property(samples, fc.double({ min: 0, max: 100, noNaN: true }), (xs, p) => {
        const value = percentile(xs, p);
        expect(xs).toContain(value);
        expect(value).toBeGreaterThanOrEqual(Math.min(...xs));
        expect(value).toBeLessThanOrEqual(Math.max(...xs));
      }),
      { numRuns: 300 },
    );
  });

  it('never decreases as p grows, and has at least p% of the samples at or below it', () => {
    fc.assert(
      fc.property(
        samples,
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (xs, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(percentile(xs, low)).toBeLessThanOrEqual(percentile(xs, high));
          const atOrBelow = xs.filter((x) => x <= percentile(xs, high)).length;
          expect(atOrBelow / xs.length).toBeGreaterThanOrEqual(high / 100 - 1e-9);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads known ranks: p50 of 1..100 is 50, p99 is 99, p100 is 100', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([percentile(xs, 50), percentile(xs, 99), percentile(xs, 100), percentile(xs, 0)]).toEqual([50, 99, 100, 1]);
  });

  it('is NaN without samples and refuses a p outside 0..100', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('leastSquaresSlope', () => {
  it('recovers the slope of points on a line, whatever the intercept and spacing', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.uniqueArray(fc.integer({ min: -10_000, max: 10_000 }), { minLength: 2, maxLength: 50 }),
        (slope, intercept, xs) => {
          const points = xs.map((x) => ({ x, y: intercept + slope * x }));
          expect(leastSquaresSlope(points)).toBeCloseTo(slope, 3);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is 0 for a flat series, a single point, or one x only', () => {
    expect(
      leastSquaresSlope([
        { x: 1, y: 5 },
        { x: 2, y: 5 },
        { x: 9, y: 5 },
      ]),
    ).toBe(0);
    expect(leastSquaresSlope([{ x: 1, y: 5 }])).toBe(0);
    expect(
      leastSquaresSlope([
        { x: 3, y: 1 },
        { x: 3, y: 9 },
      ]),
    ).toBe(0);
  });
});
