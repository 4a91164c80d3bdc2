import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDistance, kmToMi, miToKm, toStoredKm } from './units.ts';

describe('units', () => {
  it('converts with the constants of §9', () => {
    expect(kmToMi(10)).toBeCloseTo(6.21371, 10);
    expect(miToKm(1)).toBe(1.60934);
    expect(toStoredKm(500, 'mi')).toBe(804.67);
    expect(toStoredKm(26.2, 'mi')).toBe(42.16);
    expect(toStoredKm(5.555, 'km')).toBe(5.56);
  });

  it('formats in the user unit', () => {
    expect(formatDistance(5, 'km')).toBe('5.00 km');
    expect(formatDistance(5, 'mi')).toBe('3.11 mi');
  });

  it('property: a round trip stays within the constants’ imprecision', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), (km) => {
        expect(Math.abs(miToKm(kmToMi(km)) - km)).toBeLessThan(1e-5 * Math.max(1, km));
      }),
    );
  });
});
