import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findStorageProblem,
  isStorableText,
  MAX_JSON_DEPTH,
  storageProblemMessage,
  UNSTORABLE_TEXT,
} from './storable-text.ts';

/** Any UTF-16 code unit, so lone surrogate halves and NUL appear often. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const anyText = fc.oneof(fc.string({ unit: codeUnit }), fc.string({ unit: 'binary' }), fc.string());
/** What PostgreSQL's text and jsonb accept, said independently of the regular expression under test. */
const oracle = (s: string) => !s.includes('\u0000') && s.isWellFormed();
const storableText = anyText.filter(oracle);

/** Every string and property name of a JSON value. */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap(texts);
  return Object.entries(value).flatMap(([k, v]) => [k, ...texts(v)]);
}

/** The value at a path. */
const at = (value: unknown, path: readonly (string | number)[]) =>
  path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, accepts everything else including emoji', () => {
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\ud800b')).toBe(false);
    expect(isStorableText('\udc00')).toBe(false);
    expect(isStorableText('x\ud83d')).toBe(false);
    expect(isStorableText('🏃 5 km, ça va')).toBe(true);
    expect(isStorableText('')).toBe(true);
  });

  it('property: agrees with "no NUL and well-formed UTF-16" on any string', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(isStorableText(s)).toBe(oracle(s));
      }),
      { numRuns: 1000 },
    );
  });

  it('names the first bad field of a body, escaping a bad property name', () => {
    const body = { notes: 'ok', gps_data: { positions: [{ a: 1 }, { label: 'x\u0000' }] } };
    const found = findStorageProblem(body);
    expect(found).toEqual({ path: ['gps_data', 'positions', 1, 'label'], problem: 'text' });
    expect(storageProblemMessage(found!)).toBe(`gps_data.positions.1.label: ${UNSTORABLE_TEXT}`);
    const key = findStorageProblem({ 'a\ud800': 1 });
    expect(storageProblemMessage(key!)).toBe(`a\\ud800: ${UNSTORABLE_TEXT}`);
    expect(storageProblemMessage(findStorageProblem('\u0000')!, 'id')).toBe(`id: ${UNSTORABLE_TEXT}`);
  });

  it('refuses nesting deeper than the limit', () => {
    const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
    expect(findStorageProblem(nest(MAX_JSON_DEPTH))).toBeNull();
    expect(findStorageProblem(nest(MAX_JSON_DEPTH + 1))?.problem).toBe('depth');
  });

  it('property: a JSON value of storable text has no problem; one bad string anywhere is found at its path', () => {
    const json = fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }).filter((v) => texts(v).every(oracle));
    const bad = anyText.filter((s) => !oracle(s));
    fc.assert(
      fc.property(json, bad, fc.nat(), (value, poison, pick) => {
        expect(findStorageProblem(value)).toBeNull();
        // Put the poison in place of one string of the value (or as a property of the root when it has none).
        const holder = { value };
        const slots: (string | number)[][] = [];
        const collect = (node: unknown, path: (string | number)[]) => {
          if (typeof node === 'string') slots.push(path);
          else if (node !== null && typeof node === 'object')
            for (const [k, v] of Object.entries(node)) collect(v, [...path, Array.isArray(node) ? Number(k) : k]);
        };
        collect(holder, []);
        const path = slots.length > 0 ? slots[pick % slots.length]! : ['poison'];
        const parent = at(holder, path.slice(0, -1)) as Record<string | number, unknown>;
        parent[path[path.length - 1]!] = poison;
        const found = findStorageProblem(holder);
        expect(found?.problem).toBe('text');
        expect(oracle(at(holder, found!.path) as string)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('property: storable strings stay storable when joined', () => {
    fc.assert(
      fc.property(storableText, storableText, (a, b) => {
        expect(isStorableText(a + b)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
