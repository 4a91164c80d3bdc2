import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goalCelebrationMessage, goalNeedsCelebration, pickBadgeToCelebrate } from './celebration-pick.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();
const badge = (id: string, earnedDaysAgo: number, celebrated_at: string | null = null) => ({
  id,
  earned_at: daysAgo(earnedDaysAgo),
  celebrated_at,
});

describe('pickBadgeToCelebrate', () => {
  it('picks the newest uncelebrated badge earned in the last 7 days', () => {
    const picked = pickBadgeToCelebrate([badge('old', 3), badge('new', 1), badge('stale', 9)], NOW, new Set());
    expect(picked?.id).toBe('new');
  });

  it('skips badges celebrated on the server or locally, and ones older than 7 days', () => {
    expect(pickBadgeToCelebrate([badge('a', 1, daysAgo(0)), badge('b', 8)], NOW, new Set())).toBeNull();
    expect(pickBadgeToCelebrate([badge('a', 1), badge('b', 2)], NOW, new Set(['a']))?.id).toBe('b');
  });

  it('looks at no more than 5 candidates', () => {
    const many = [1, 2, 3, 4, 5].map((i) => badge(`x${i}`, 10 + i));
    expect(pickBadgeToCelebrate([...many, badge('sixth', 1)], NOW, new Set())).toBeNull();
  });
});

describe('goalNeedsCelebration', () => {
  it('is due once a goal reaches 100% and until it is remembered', () => {
    expect(goalNeedsCelebration({ id: 'g', percentage: 100 }, new Set())).toBe(true);
    expect(goalNeedsCelebration({ id: 'g', percentage: 99.9 }, new Set())).toBe(false);
    expect(goalNeedsCelebration({ id: 'g', percentage: 120 }, new Set(['g']))).toBe(false);
    expect(goalNeedsCelebration(null, new Set())).toBe(false);
  });
});

describe('goalCelebrationMessage', () => {
  it('tells a staked goal its hold is released, and never mentions a stake to a free goal', () => {
    expect(goalCelebrationMessage(1000)).toBe('Your $10 hold is released and your streak keeps growing. Keep it up!');
    expect(goalCelebrationMessage(0)).toBe('Your streak keeps growing. Keep it up!');
  });

  it('property: money is mentioned exactly when there was a stake', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10_000_00 })), (cents) => {
        const message = goalCelebrationMessage(cents);
        expect(/stake|hold|\$/i.test(message)).toBe(cents > 0);
      }),
      { numRuns: 300 },
    );
  });
});
