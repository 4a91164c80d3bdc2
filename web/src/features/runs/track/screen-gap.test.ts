import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpsPausedMessage, longestGapMs, MIN_TOLD_GAP_MS, toldGapMinutes } from './screen-gap.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 1_000);

describe('the GPS gap while the screen was off', () => {
  it('is the whole hidden span when no fix came, and tells it in minutes', () => {
    expect(longestGapMs(1_000, 1_000 + 6 * 60_000, [])).toBe(6 * 60_000);
    expect(toldGapMinutes(6 * 60_000)).toBe(6);
    expect(gpsPausedMessage(6)).toBe('GPS paused for 6 min while the screen was off');
  });

  it('is the longest stretch between fixes that kept coming; a short one is not told', () => {
    const hidden = 0;
    const shown = 10 * 60_000;
    expect(longestGapMs(hidden, shown, [60_000, 120_000, 9 * 60_000])).toBe(7 * 60_000);
    const steady = Array.from({ length: 199 }, (_, i) => (i + 1) * 3_000);
    expect(toldGapMinutes(longestGapMs(hidden, 600_000, steady))).toBeNull();
    expect(toldGapMinutes(MIN_TOLD_GAP_MS - 1)).toBeNull();
    expect(toldGapMinutes(MIN_TOLD_GAP_MS)).toBe(1);
  });

  it('never exceeds the hidden span, never falls below its share, ignores fixes outside it (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 0, max: 4 * 3_600_000 }),
        fc.array(fc.integer({ min: -3_600_000, max: 5 * 3_600_000 }), { maxLength: 60 }),
        (hiddenAt, span, offsets) => {
          const shownAt = hiddenAt + span;
          const fixes = offsets.map((o) => hiddenAt + o);
          const gap = longestGapMs(hiddenAt, shownAt, fixes);
          expect(gap).toBeLessThanOrEqual(span);
          const inside = fixes.filter((t) => t > hiddenAt && t < shownAt).length;
          // n fixes cut the span into n + 1 pieces: the longest is at least the average.
          expect(gap).toBeGreaterThanOrEqual(span / (inside + 1) - 1e-9);
          // Fixes outside the span change nothing.
          expect(longestGapMs(hiddenAt, shownAt, fixes.filter((t) => t > hiddenAt && t < shownAt))).toBe(gap);
          const minutes = toldGapMinutes(gap);
          if (minutes !== null) expect(Math.abs(minutes * 60_000 - gap)).toBeLessThanOrEqual(30_000);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
