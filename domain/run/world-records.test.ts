import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { worldRecordSpeedKmh } from './world-records.ts';

describe('worldRecordSpeedKmh', () => {
  // The speed-window check (track-reading.ts) skips working out a window's record when the window is no faster than
  // the longest record, less a rounding margin: that is sound only while no duration's record is slower than that.
  it('is never slower than the longest record, whatever the duration', () => {
    const slowest = worldRecordSpeedKmh(Number.POSITIVE_INFINITY);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200_000, noNaN: true }), (sec) => {
        expect(worldRecordSpeedKmh(sec)).toBeGreaterThanOrEqual(slowest * (1 - 1e-9));
      }),
      { numRuns: 20_000 },
    );
  });
});
