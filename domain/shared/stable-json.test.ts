import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson } from './stable-json.ts';

/** The rule as it was first written (and as every recorded fingerprint was made): each object's entries sorted. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** JSON values, and what else a caller may hand over: undefined properties, Dates, undefined in arrays, odd numbers. */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    fc.constantFrom(undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 5e-7),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('stableJson', () => {
  it('writes what the plain rule writes, for any value', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(stableJson(value)).toBe(reference(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes the same text whatever the order of an object’s keys', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 8 }), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(stableJson(reversed)).toBe(stableJson(object));
      }),
      { numRuns: 500 },
    );
  });

  it('writes a GPS body with its keys sorted at every level', () => {
    const body = {
      source: 'gps',
      gps_data: { positions: [{ timestamp: 2, latitude: 1.5, longitude: -0 }] },
      notes: undefined,
    };
    expect(stableJson(body)).toBe(
      '{"gps_data":{"positions":[{"latitude":1.5,"longitude":0,"timestamp":2}]},"source":"gps"}',
    );
  });
});
