import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thinTrack } from './thin-track.ts';

describe('thinTrack', () => {
  it('keeps a short track whole', () => {
    expect(thinTrack([1, 2, 3], 10)).toEqual([1, 2, 3]);
  });

  it('keeps at most max fixes, the first and the last, in their order, each from the track', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { minLength: 2, maxLength: 3000 }),
        fc.integer({ min: 2, max: 500 }),
        (xs, max) => {
          const track = xs.map((value, index) => ({ index, value }));
          const thin = thinTrack(track, max);
          expect(thin.length).toBe(Math.min(max, track.length));
          expect(thin[0]).toBe(track[0]);
          expect(thin.at(-1)).toBe(track.at(-1));
          for (let i = 1; i < thin.length; i++) expect(thin[i]!.index).toBeGreaterThan(thin[i - 1]!.index);
        },
      ),
      { numRuns: 300 },
    );
  });
});
