import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { daysLeftInWeek, daysLeftText } from './days-left.ts';

describe('days left this week', () => {
  it('counts today: Monday 7, Sunday 1', () => {
    expect(daysLeftInWeek(Temporal.Instant.from('2025-03-10T05:00:00Z'), 'America/New_York')).toBe(7);
    expect(daysLeftInWeek(Temporal.Instant.from('2025-03-17T03:59:00Z'), 'America/New_York')).toBe(1);
  });

  it('depends on the zone', () => {
    const t = Temporal.Instant.from('2025-03-09T12:00:00Z');
    expect(daysLeftInWeek(t, 'Pacific/Auckland')).toBe(7);
    expect(daysLeftInWeek(t, 'Pacific/Honolulu')).toBe(1);
  });

  it('reads Last day! / ends at 11:59 PM on the final day', () => {
    expect(daysLeftText(1)).toEqual({ headline: 'Last day!', detail: 'ends at 11:59 PM' });
    expect(daysLeftText(3)).toEqual({ headline: '3 days left', detail: null });
  });
});
