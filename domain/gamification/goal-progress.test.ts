import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goalProgress } from './goal-progress.ts';
import { MOTIVATIONAL_MESSAGES, motivationalMessage } from './motivation.ts';

describe('goal progress', () => {
  it('sums a distance goal exactly and rounds the percentage down', () => {
    expect(goalProgress('distance', 20, [5.1, 4.9, 0.1, 0.2])).toEqual({
      current: 10.3,
      percentage: 51,
      displayPercentage: 51,
      completed: false,
      message: 'Halfway there! Keep it up!',
    });
    expect(goalProgress('distance', 10, [9.99]).percentage).toBe(99);
    expect(goalProgress('distance', 10, [9.99]).completed).toBe(false);
  });
  it('completes at 100% and lets the percentage exceed 100 while the bar stops at 100', () => {
    const p = goalProgress('distance', 10, [7, 7]);
    expect(p).toMatchObject({
      current: 14,
      percentage: 140,
      displayPercentage: 100,
      completed: true,
      message: 'Goal achieved!',
    });
    expect(goalProgress('distance', 0.3, [0.1, 0.2]).completed).toBe(true);
  });
  it('counts runs for a count goal', () => {
    expect(goalProgress('count', 4, [1, 2, 3])).toMatchObject({ current: 3, percentage: 75, completed: false });
    expect(goalProgress('count', 3, [0.5, 1, 2]).completed).toBe(true);
  });
  it('starts at zero', () => {
    expect(goalProgress('count', 3, [])).toMatchObject({ current: 0, percentage: 0, message: "Let's get started!" });
  });
});

describe('motivational messages', () => {
  it('follows the §9 thresholds', () => {
    expect([0, 9, 10, 24, 25, 49, 50, 69, 70, 99, 100, 250].map(motivationalMessage)).toEqual([
      "Let's get started!",
      "Let's get started!",
      "You're on your way!",
      "You're on your way!",
      'Great start! Keep going!',
      'Great start! Keep going!',
      'Halfway there! Keep it up!',
      'Halfway there! Keep it up!',
      'Almost there! Final push!',
      'Almost there! Final push!',
      'Goal achieved!',
      'Goal achieved!',
    ]);
  });
});

describe('progress properties', () => {
  const distances = fc.array(
    fc.integer({ min: 0, max: 5000 }).map((h) => h / 100),
    { maxLength: 15 },
  );
  const target = fc.integer({ min: 1, max: 80467 }).map((h) => h / 100);
  const rank = (message: string) => MOTIVATIONAL_MESSAGES.findIndex((m) => m.message === message);

  it('is never negative, and completed exactly when the percentage reaches 100', () => {
    fc.assert(
      fc.property(fc.constantFrom('distance' as const, 'count' as const), target, distances, (kind, t, runs) => {
        const p = goalProgress(kind, t, runs);
        expect(p.percentage).toBeGreaterThanOrEqual(0);
        expect(p.displayPercentage).toBeLessThanOrEqual(100);
        expect(p.completed).toBe(p.percentage >= 100);
      }),
    );
  });
  it('never moves the message backwards as runs are added', () => {
    fc.assert(
      fc.property(
        target,
        distances,
        fc.integer({ min: 0, max: 5000 }).map((h) => h / 100),
        (t, runs, extra) => {
          const before = goalProgress('distance', t, runs);
          const after = goalProgress('distance', t, [...runs, extra]);
          expect(after.percentage).toBeGreaterThanOrEqual(before.percentage);
          expect(rank(after.message)).toBeGreaterThanOrEqual(rank(before.message));
        },
      ),
    );
  });
  it('never moves the message backwards as the percentage grows', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -50, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        (p, more) => {
          expect(rank(motivationalMessage(p + more))).toBeGreaterThanOrEqual(rank(motivationalMessage(p)));
        },
      ),
    );
  });
});
