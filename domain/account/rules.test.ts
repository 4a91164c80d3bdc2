import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { DISPLAY_NAME_MAX, FALLBACK_DISPLAY_NAME } from './policy.ts';
import { displayNameFromEmail, validateDisplayName } from './rules.ts';

describe('display name derived from an e-mail address', () => {
  it('is the local part before any +tag', () => {
    expect(displayNameFromEmail('ada.lovelace@example.com')).toBe('ada.lovelace');
    expect(displayNameFromEmail('ada+runs@example.com')).toBe('ada');
    expect(displayNameFromEmail('+x@example.com')).toBe(FALLBACK_DISPLAY_NAME);
  });

  it('always passes the display-name rule and keeps a clean local part whole when it fits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.domain(), (local, domain) => {
        const name = displayNameFromEmail(`${local}@${domain}`);
        const valid = validateDisplayName(name);
        expect(isRight(valid) && valid.right).toBe(name);
        expect([...name].length).toBeLessThanOrEqual(DISPLAY_NAME_MAX);
        const clean = local.split('+')[0] ?? '';
        const printable = [...clean].every((ch) => ch.codePointAt(0)! > 0x1f && ch !== '\u007f' && !/[\s@]/.test(ch));
        if (clean !== '' && printable && [...clean].length <= DISPLAY_NAME_MAX) {
          expect(name).toBe(clean);
        }
      }),
      { numRuns: 300 },
    );
  });
});
