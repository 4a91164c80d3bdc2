import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SAFE_INTEGER_ASCII, writeSafeInteger } from './decimal-ascii.ts';

const written = (value: number) => {
  const bytes = new Uint8Array(MAX_SAFE_INTEGER_ASCII + 3);
  const end = writeSafeInteger(bytes, 2, value);
  return Buffer.from(bytes.subarray(2, end)).toString('latin1');
};

describe('writeSafeInteger', () => {
  it('writes what a template literal prints, for any safe integer', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(written(n)).toBe(`${n}`);
      }),
      { numRuns: 5_000 },
    );
  });

  it('writes the edges and -0 as a template literal does', () => {
    for (const n of [
      0,
      -0,
      1,
      -1,
      9,
      10,
      99,
      100,
      2 ** 31,
      -(2 ** 31),
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ])
      expect(written(n)).toBe(`${n}`);
    expect(written(-0)).toBe('0');
    expect(written(Number.MIN_SAFE_INTEGER).length).toBe(MAX_SAFE_INTEGER_ASCII);
  });

  it('writes every power of ten and its neighbours up to 2^53', () => {
    for (let p = 1; p <= Number.MAX_SAFE_INTEGER; p *= 10)
      for (const n of [p - 1, p, p + 1, -p]) if (Number.isSafeInteger(n)) expect(written(n)).toBe(`${n}`);
  });
});
