import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDollars, isStakeOption, splitCapture, STAKE_OPTIONS_CENTS } from './money.ts';

describe('money', () => {
  it('splits 80/20 with a charity and 100% fee without', () => {
    expect(splitCapture(1000, true)).toEqual({ donationCents: 800, feeCents: 200 });
    expect(splitCapture(1000, false)).toEqual({ donationCents: 0, feeCents: 1000 });
    expect(splitCapture(999, true)).toEqual({ donationCents: 799, feeCents: 200 });
  });

  it('refuses fractions of a cent', () => {
    expect(() => splitCapture(10.5, true)).toThrow(RangeError);
    expect(() => splitCapture(-1, true)).toThrow(RangeError);
  });

  it('knows the stake options', () => {
    expect(STAKE_OPTIONS_CENTS).toEqual([0, 500, 1000, 2000, 5000, 10000]);
    expect(isStakeOption(2000)).toBe(true);
    expect(isStakeOption(1500)).toBe(false);
  });

  it('formats dollars', () => {
    expect(formatDollars(500)).toBe('$5');
    expect(formatDollars(1050)).toBe('$10.50');
    expect(formatDollars(123456)).toBe('$1,234.56');
    expect(formatDollars(7)).toBe('$0.07');
    expect(formatDollars(800, { alwaysCents: true })).toBe('$8.00');
    expect(formatDollars(123456, { alwaysCents: true })).toBe('$1,234.56');
  });

  it('property: an amount with its cents reads back as the same number of cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), (cents) => {
        const text = formatDollars(cents, { alwaysCents: true });
        expect(text).toMatch(/^-?\$\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(Math.round(Number(text.replace(/[$,]/g, '')) * 100)).toBe(cents);
        if (cents % 100 !== 0) expect(formatDollars(cents)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('property: donation + fee = captured; donation is the 80% floor exactly when a charity was chosen', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.boolean(), (captured, hasCharity) => {
        const { donationCents, feeCents } = splitCapture(captured, hasCharity);
        expect(donationCents + feeCents).toBe(captured);
        expect(Number.isInteger(donationCents) && Number.isInteger(feeCents)).toBe(true);
        expect(donationCents).toBe(hasCharity ? Math.floor((captured * 80) / 100) : 0);
        expect(feeCents).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
