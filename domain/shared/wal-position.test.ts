import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWalPosition, parseWalPosition } from './wal-position.ts';

// A client sends back the position its write returned (x-read-after): it is parsed exactly, and compared as a number,
// so "is the replica there yet" is a numeric comparison, never a string one ('9/0' < '10/0').
describe('WAL positions', () => {
  const position = fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }));

  it('round-trip through PostgreSQL text form, in either case', () => {
    fc.assert(
      fc.property(position, ([high, low]) => {
        const text = `${high.toString(16)}/${low.toString(16)}`;
        const parsed = parseWalPosition(text);
        expect(parsed).toBe((BigInt(high) << 32n) | BigInt(low));
        expect(formatWalPosition(parsed!)).toBe(text.toUpperCase());
        expect(parseWalPosition(text.toUpperCase())).toBe(parsed);
      }),
      { numRuns: 1000 },
    );
  });

  it('order as the log: a later position is a larger number', () => {
    fc.assert(
      fc.property(position, position, (a, b) => {
        const pa = parseWalPosition(`${a[0].toString(16)}/${a[1].toString(16)}`)!;
        const pb = parseWalPosition(`${b[0].toString(16)}/${b[1].toString(16)}`)!;
        const later = a[0] !== b[0] ? a[0] > b[0] : a[1] > b[1];
        expect(pa > pb).toBe(later);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (text) => {
        const valid = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/.test(text);
        expect(parseWalPosition(text) !== null).toBe(valid);
      }),
      { numRuns: 1000 },
    );
    for (const bad of ['', '/', '0/', '/0', '123456789/0', '0/123456789', '0x1/0', '-1/0', '1/2/3', '1 /2', '１/2']) {
      expect(parseWalPosition(bad), bad).toBeNull();
    }
  });
});
