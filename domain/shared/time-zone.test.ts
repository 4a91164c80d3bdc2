import { describe, expect, it } from 'vitest';
import { canonicalTimeZone } from './time-zone.ts';

const isIanaTimeZone = (name: string) => canonicalTimeZone(name) !== null;

describe('IANA time zones', () => {
  it('accepts IANA names and canonicalises their case', () => {
    expect(isIanaTimeZone('Pacific/Auckland')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
  });

  it('refuses unknown names, blanks and fixed offsets', () => {
    expect(isIanaTimeZone('Foo/Bar')).toBe(false);
    expect(isIanaTimeZone('')).toBe(false);
    expect(isIanaTimeZone('+05:00')).toBe(false);
  });
});
