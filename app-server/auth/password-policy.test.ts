import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLANK_PASSWORD_MESSAGE,
  COMMON_PASSWORD_MESSAGE,
  SHORT_PASSWORD_MESSAGE,
  commonPasswords,
  passwordWeakness,
} from './password-policy.ts';

const RUNS = 500;
const whitespace = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\ufeff');
/** Characters that no password of the common list contains, so a password with one is never "common". */
const unlisted = fc.constantFrom('#', '!', '%', '^', '&', '*', '(', ')', '=', '~', 'é', '😀');

describe('password policy', () => {
  it('holds the common passwords long enough to matter, lowercase', () => {
    const list = [...commonPasswords()];
    expect(list.length).toBeGreaterThan(3000);
    expect(list).toEqual(expect.arrayContaining(['password', 'iloveyou', 'qwertyuiop', 'p@ssw0rd']));
    expect(list.every((p) => [...p].length >= 8 && p === p.toLowerCase())).toBe(true);
  });

  it("refuses anything under 8 characters with the spec's message, counting characters, not UTF-16 units", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 7 }), (password) => {
        fc.pre([...password].length < 8);
        expect(passwordWeakness(password)).toEqual({ reason: 'length', message: SHORT_PASSWORD_MESSAGE });
      }),
      { numRuns: RUNS },
    );
    expect(passwordWeakness('😀😀😀😀😀😀😀😀')).toBeNull();
  });

  it('refuses a password of whitespace only, however long', () => {
    fc.assert(
      fc.property(fc.array(whitespace, { minLength: 8, maxLength: 64 }), (chars) => {
        expect(passwordWeakness(chars.join(''))).toEqual({ reason: 'characters', message: BLANK_PASSWORD_MESSAGE });
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses every listed password in any letter case, with surrounding spaces too', () => {
    const list = [...commonPasswords()];
    fc.assert(
      fc.property(
        fc.nat({ max: list.length - 1 }),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        fc.boolean(),
        (index, upper, padded) => {
          const cased = [...list[index]!].map((ch, i) => (upper[i % 64] ? ch.toUpperCase() : ch)).join('');
          const password = padded ? ` ${cased} ` : cased;
          expect(passwordWeakness(password)).toEqual({ reason: 'pwned', message: COMMON_PASSWORD_MESSAGE });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('accepts 8 or more characters that are not all whitespace and not on the list', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 7, maxLength: 80 }), unlisted, (text, mark) => {
        expect(passwordWeakness(`${text}${mark}`)).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });
});
