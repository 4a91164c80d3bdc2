import { describe, expect, it } from 'vitest';
import { formatCount } from './format.ts';

describe('formatCount', () => {
  it('groups thousands as toLocaleString("en-US") does for whole numbers', () => {
    for (const value of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, -1, -4_500])
      expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
  });
});
