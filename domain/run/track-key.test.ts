import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GpsPosition } from './geo.ts';
import { trackKey } from './track-key.ts';

/*
 * A track's key is stored with its run's verification and compared with the keys of runs saved long before: however
 * it is computed, it must stay the key the first version computed, FNV-1a twice over `lat,lon;lat,lon;…` (1e-6°).
 */

function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The key as first written: the whole text built, then hashed. */
function keyAsFirstWritten(positions: readonly GpsPosition[]): string | null {
  if (positions.length < 2) return null;
  const text = positions.map((p) => `${Math.round(p.latitude * 1e6)},${Math.round(p.longitude * 1e6)}`).join(';');
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(fnv1a(text, 0x811c9dc5))}${hex(fnv1a(text, 0x050c5d1f))}`;
}

const fix = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  timestamp: fc.integer({ min: 0, max: 2_000_000_000_000 }),
});

describe('trackKey', () => {
  it('is the key as first written, for any track', () => {
    fc.assert(
      fc.property(fc.array(fix, { maxLength: 60 }), (positions) => {
        expect(trackKey(positions)).toBe(keyAsFirstWritten(positions));
      }),
      { numRuns: 2_000 },
    );
  });

  it('is the key as first written for coordinates no run can hold too (huge, infinite, NaN)', () => {
    const anyFix = fc.record({ latitude: fc.double(), longitude: fc.double(), timestamp: fc.integer() });
    fc.assert(
      fc.property(fc.array(fc.oneof(fix, anyFix), { maxLength: 20 }), (positions) => {
        expect(trackKey(positions)).toBe(keyAsFirstWritten(positions));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps a known track’s key', () => {
    const positions = [
      { latitude: 48.8566, longitude: 2.3522, timestamp: 0 },
      { latitude: 48.85658023910522, longitude: 2.3521386881137225, timestamp: 1_701 },
      { latitude: -33.8688, longitude: 151.2093, timestamp: 3_000 },
    ];
    expect(trackKey(positions)).toBe(keyAsFirstWritten(positions));
    expect(trackKey(positions)).toBe('8269e0ef39e4453d');
  });
});
