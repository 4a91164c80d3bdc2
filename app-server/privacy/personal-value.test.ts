import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../auth/secrets.ts';
import { personalBytes, personalValue } from './personal-value.ts';

/** What a personal value always read back as: its JSON round trip. */
const asJsonReadsIt = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

const bytesOf = (written: string | Uint8Array) =>
  typeof written === 'string' ? Buffer.from(written, 'utf8') : Buffer.from(written);

const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, 1e308, 5e-324),
);
/** Fix-like objects: mostly one shape (a track), sometimes another key, a missing one, a null or a string. */
const fixArb = fc.oneof(
  { weight: 8, arbitrary: fc.record({ latitude: number, longitude: number, timestamp: number, accuracy: number }) },
  { weight: 1, arbitrary: fc.record({ latitude: number, longitude: number, timestamp: number }) },
  { weight: 1, arbitrary: fc.record({ longitude: number, latitude: number, timestamp: number, accuracy: number }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(number, fc.constant(null), fc.string())),
  },
);
const trackLike = fc.oneof(
  fc.array(fixArb, { maxLength: 40 }),
  fc.array(fc.record({ latitude: fc.double({ noNaN: true, noDefaultInfinity: true }), timestamp: fc.integer() }), {
    minLength: 1,
    maxLength: 40,
  }),
);

describe('personal values (sealed as JSON text, or a track in columns)', () => {
  it('reads back every value as its JSON round trip, key order and all', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), trackLike), (value) => {
        const read = personalValue(bytesOf(personalBytes(value)));
        expect(read).toStrictEqual(asJsonReadsIt(value));
        expect(JSON.stringify(read)).toBe(JSON.stringify(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it('writes a run’s track in columns, which no JSON text is mistaken for', () => {
    const track = Array.from({ length: 540 }, (_, i) => ({
      latitude: 51.5 + i * 1.234567e-5,
      longitude: -0.1 - i * 2.3456789e-5,
      timestamp: 1_764_000_000_000 + i * 3_000,
      accuracy: 3 + (i % 9),
    }));
    const written = personalBytes(track);
    expect(typeof written).not.toBe('string');
    expect(bytesOf(written)[0]).toBe(0);
    expect(personalValue(bytesOf(written))).toStrictEqual(track);
    // An own __proto__ key is one JSON keeps: such a "track" goes as JSON.
    const odd = JSON.parse('[{"__proto__": 1, "x": 2}]') as unknown;
    expect(typeof personalBytes(odd)).toBe('string');
    expect(personalValue(bytesOf(personalBytes(odd)))).toStrictEqual(odd);
  });

  it('opens what was sealed as JSON text before, and what is sealed now, through the secret box', async () => {
    const box = createSecretBox('personal-value-test');
    const track = Array.from({ length: 200 }, (_, i) => ({
      latitude: 48 + i / 1e4,
      longitude: 2 - i / 1e4,
      timestamp: i,
    }));
    const before = await box.sealAsync(JSON.stringify(track));
    const now = await box.sealAsync(personalBytes(track));
    expect(personalValue(box.openBytes(before))).toStrictEqual(track);
    expect(personalValue(box.openBytes(now))).toStrictEqual(track);
    expect(personalValue(box.openBytes(await box.sealAsync(personalBytes('a note'))))).toBe('a note');
  });
});
