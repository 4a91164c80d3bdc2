import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './dates.ts';
import { computeStreak, NO_STREAK, streakAfter, streakAsOf, type WeekOutcome } from './streaks.ts';

const W = (n: number) => addDays('2025-01-06', 7 * n); // Monday of week n
const done = (n: number): WeekOutcome => ({ weekStart: W(n), result: 'completed' });
const missed = (n: number): WeekOutcome => ({ weekStart: W(n), result: 'missed' });

describe('streaks in weeks', () => {
  it('counts consecutive completed weeks', () => {
    expect(computeStreak([done(0), done(1), done(2)])).toEqual({ current: 3, longest: 3, lastCompletedWeek: W(2) });
  });
  it('resets on a missed week and keeps the longest', () => {
    expect(computeStreak([done(0), done(1), missed(2), done(3)])).toEqual({
      current: 1,
      longest: 2,
      lastCompletedWeek: W(3),
    });
    expect(computeStreak([done(0), missed(1)])).toEqual({ current: 0, longest: 1, lastCompletedWeek: W(0) });
  });
  it('treats a week without a goal as breaking the streak', () => {
    expect(computeStreak([done(0), done(1), done(3)])).toEqual({ current: 1, longest: 2, lastCompletedWeek: W(3) });
  });
  it('crosses year boundaries', () => {
    const outcomes = [
      { weekStart: '2024-12-23', result: 'completed' },
      { weekStart: '2024-12-30', result: 'completed' },
    ] as const;
    expect(computeStreak(outcomes).current).toBe(2);
  });
  it('keeps the streak alive during the week after the last completed one, and drops it after', () => {
    const s = computeStreak([done(0), done(1)]);
    expect(streakAsOf(s, W(2)).current).toBe(2);
    expect(streakAsOf(s, W(1)).current).toBe(2);
    expect(streakAsOf(s, W(3))).toEqual({ current: 0, longest: 2, lastCompletedWeek: W(1) });
    expect(computeStreak([done(0)], W(5)).current).toBe(0);
  });
  it('ignores order and replays, and lets a completion win over a miss in the same week', () => {
    expect(computeStreak([done(2), done(0), done(1), done(1)])).toEqual(computeStreak([done(0), done(1), done(2)]));
    expect(computeStreak([done(0), missed(1), done(1)]).current).toBe(2);
    expect(streakAfter(streakAfter(NO_STREAK, done(1)), done(0))).toEqual(streakAfter(NO_STREAK, done(1)));
  });
  it('keeps current ≤ longest for any outcome sequence, applied in any order', () => {
    const outcome = fc
      .record({ week: fc.nat(20), ok: fc.boolean() })
      .map(({ week, ok }) => (ok ? done(week) : missed(week)));
    fc.assert(
      fc.property(fc.array(outcome, { maxLength: 30 }), fc.nat(25), (outcomes, now) => {
        const folded = outcomes.reduce(streakAfter, NO_STREAK);
        for (const s of [
          computeStreak(outcomes),
          computeStreak(outcomes, W(now)),
          folded,
          streakAsOf(folded, W(now)),
        ]) {
          expect(s.current).toBeGreaterThanOrEqual(0);
          expect(s.current).toBeLessThanOrEqual(s.longest);
        }
      }),
    );
  });
});
