import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countedTowardAt, type GoalWeek } from './counted-toward.ts';

const WEEK_MS = 7 * 24 * 3600 * 1000;
const monday = Date.parse('2026-11-16T00:00:00Z');
const week = (startMs: number, stakeAmountCents: number, canceled = false): GoalWeek => ({
  weekStartsAtMs: startMs,
  weekEndsAtMs: startMs + WEEK_MS,
  stakeAmountCents,
  canceled,
});

describe('countedTowardAt', () => {
  it('names the stake of a staked week, the goal of a free week, nothing in a week without a goal', () => {
    const goals = [week(monday, 2_000), week(monday + WEEK_MS, 0)];
    expect(countedTowardAt(goals, monday + 3_600_000)).toBe('stake');
    expect(countedTowardAt(goals, monday + WEEK_MS)).toBe('goal');
    expect(countedTowardAt(goals, monday - 1)).toBeNull();
    expect(countedTowardAt(goals, monday + 2 * WEEK_MS)).toBeNull();
  });

  it('a canceled goal leaves its week without a goal', () => {
    expect(countedTowardAt([week(monday, 2_000, true)], monday + 1)).toBeNull();
  });

  it('speaks of a stake only when the run started inside a week with money on it', () => {
    const goalArb = fc.record({
      weekStartsAtMs: fc.integer({ min: monday - 10 * WEEK_MS, max: monday + 10 * WEEK_MS }),
      stakeAmountCents: fc.oneof(fc.constant(0), fc.integer({ min: 500, max: 10_000 })),
      canceled: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(goalArb, { maxLength: 6 }),
        fc.integer({ min: monday - 12 * WEEK_MS, max: monday + 12 * WEEK_MS }),
        (raw, startedAtMs) => {
          const goals = raw.map((g) => week(g.weekStartsAtMs, g.stakeAmountCents, g.canceled));
          const toward = countedTowardAt(goals, startedAtMs);
          const covering = goals.filter(
            (g) => !g.canceled && g.weekStartsAtMs <= startedAtMs && startedAtMs < g.weekEndsAtMs,
          );
          if (covering.length === 0) expect(toward).toBeNull();
          else expect(toward).toBe(covering[0]!.stakeAmountCents > 0 ? 'stake' : 'goal');
          if (toward === 'stake') expect(covering.some((g) => g.stakeAmountCents > 0)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
