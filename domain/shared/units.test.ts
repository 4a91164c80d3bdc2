import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDistance, formatSpeed, kmToMi, miToKm, toStoredKm } from './units.ts';

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

  it('formats a speed in km/h, or mph for the mi unit, and a dash when there is none', () => {
    expect(formatSpeed(10.91, 'km')).toBe('10.9 km/h');
    expect(formatSpeed(10.91, 'mi')).toBe('6.8 mph');
    expect(formatSpeed(0, 'km')).toBe('0.0 km/h');
    expect(formatSpeed(null, 'mi')).toBe('—');
    expect(formatSpeed(Number.NaN, 'km')).toBe('—');
  });

  it('property: the shown speed is the speed in the unit to within half a tenth, and mph is never above km/h', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), (kmh) => {
        const shownKm = Number.parseFloat(formatSpeed(kmh, 'km'));
        const shownMi = Number.parseFloat(formatSpeed(kmh, 'mi'));
        expect(formatSpeed(kmh, 'km')).toMatch(/^\d+\.\d km\/h$/);
        expect(formatSpeed(kmh, 'mi')).toMatch(/^\d+\.\d mph$/);
        expect(Math.abs(shownKm - kmh)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(Math.abs(shownMi - kmToMi(kmh))).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(shownMi).toBeLessThanOrEqual(shownKm);
      }),
      { numRuns: 500 },
    );
  });
});
