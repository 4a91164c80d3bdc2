import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { instantIso, isoMillis } from './instant.ts';

/*
 * instantIso and isoMillis write instants by Date where Date writes them as Temporal does (whole milliseconds of the
 * years 0000–9999), and leave the rest to Temporal. What they write goes into events, so it must be Temporal's
 * string to the character, for every instant, the edges of Date's four-digit years included.
 */
const YEAR_0000_MS = -62_167_219_200_000;
const YEAR_10000_MS = 253_402_300_800_000;

/** Milliseconds around the edges of four-digit years, and anywhere between. */
const epochMs = fc.oneof(
  fc.integer({ min: YEAR_0000_MS - 86_400_000, max: YEAR_0000_MS + 86_400_000 }),
  fc.integer({ min: YEAR_10000_MS - 86_400_000, max: YEAR_10000_MS + 86_400_000 }),
  fc.integer({ min: -86_400_000, max: 86_400_000 }),
  fc.integer({ min: YEAR_0000_MS - 10 * 86_400_000, max: YEAR_10000_MS + 10 * 86_400_000 }),
);
/** Whole milliseconds most often (what clocks give), with round fractions, and nanoseconds past a millisecond. */
const instant = fc
  .tuple(
    epochMs,
    fc.oneof(fc.constant(0), fc.constantFrom(0, 100, 120, 500, 990), fc.integer({ min: 0, max: 999 })),
    fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 999_999 })),
  )
  .map(([ms, roundMs, ns]) =>
    Temporal.Instant.fromEpochNanoseconds(BigInt(ms - (ms % 1000) + roundMs) * 1_000_000n + BigInt(ns)),
  );

describe('instants written as Temporal writes them', () => {
  it('instantIso is instant.toString() and isoMillis is toString({ fractionalSecondDigits: 3 }), for any instant', () => {
    fc.assert(
      fc.property(instant, (at) => {
        expect(instantIso(at)).toBe(at.toString());
        expect(isoMillis(at)).toBe(at.toString({ fractionalSecondDigits: 3 }));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes the forms events hold', () => {
    expect(instantIso(Temporal.Instant.from('2026-11-23T05:00:00Z'))).toBe('2026-11-23T05:00:00Z');
    expect(instantIso(Temporal.Instant.from('2026-11-23T05:00:00.5Z'))).toBe('2026-11-23T05:00:00.5Z');
    expect(instantIso(Temporal.Instant.from('2026-11-23T05:00:00.120Z'))).toBe('2026-11-23T05:00:00.12Z');
    expect(isoMillis(Temporal.Instant.from('2026-11-23T05:00:00Z'))).toBe('2026-11-23T05:00:00.000Z');
    expect(instantIso(Temporal.Instant.from('1969-12-31T23:59:59.999999999Z'))).toBe('1969-12-31T23:59:59.999999999Z');
  });
});
