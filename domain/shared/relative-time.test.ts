import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = Temporal.Instant.from('2025-03-12T12:00:00Z');
const ago = (seconds: number) => relativeTime(now.subtract({ seconds }), now, 'America/New_York');

describe('relative time', () => {
  it('reads just now, Nm, Nh, Nd, then a date after 7 days', () => {
    expect(ago(0)).toBe('just now');
    expect(ago(59)).toBe('just now');
    expect(ago(60)).toBe('1m ago');
    expect(ago(3599)).toBe('59m ago');
    expect(ago(3600)).toBe('1h ago');
    expect(ago(86_399)).toBe('23h ago');
    expect(ago(86_400)).toBe('1d ago');
    expect(ago(7 * 86_400 - 1)).toBe('6d ago');
    expect(ago(7 * 86_400)).toBe('Mar 5, 2025');
  });

  it('a time slightly in the future (clock skew) reads just now', () => {
    expect(ago(-30)).toBe('just now');
  });
});
