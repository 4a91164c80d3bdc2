import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './dates.ts';
import { computeStreak, NO_STREAK, type Streak, type WeekOutcome } from './streaks.ts';
import { settleWeek } from './week-settlement.ts';

const FIRST = '2026-01-05';
const W = (n: number) => addDays(FIRST, 7 * n);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 800);

/** A calendar of weeks 0..n-1: each paused, completed, missed or without a goal. */
const calendar = fc.array(fc.constantFrom('paused', 'completed', 'missed', 'none'), { minLength: 1, maxLength: 30 });

/** Outcomes and paused weeks of a calendar; and the same calendar with its paused weeks cut out. */
function split(weeks: readonly string[]) {
  const outcomes: WeekOutcome[] = [];
  const compacted: WeekOutcome[] = [];
  const paused = new Set<string>();
  let kept = 0;
  weeks.forEach((kind, i) => {
    if (kind === 'paused') {
      paused.add(W(i));
      return;
    }
    if (kind === 'completed' || kind === 'missed') {
      outcomes.push({ weekStart: W(i), result: kind });
      compacted.push({ weekStart: W(kept), result: kind });
    }
    kept++;
  });
  return { outcomes, compacted, paused };
}

describe('streaks across paused weeks (issue 25)', () => {
  it('a paused week neither breaks nor extends the streak: the streak is that of the calendar without it', () => {
    fc.assert(
      fc.property(calendar, fc.nat(40), (weeks, at) => {
        const { outcomes, compacted, paused } = split(weeks);
        expect(pick(computeStreak(outcomes, undefined, paused))).toEqual(pick(computeStreak(compacted)));
        // As seen during a later week that is not itself paused (the week after the calendar at most).
        const current = Math.min(at, weeks.length);
        if (weeks[current] === 'paused') return;
        const compactCurrent = weeks.slice(0, current).filter((k) => k !== 'paused').length;
        const seen = computeStreak(outcomes, W(current), paused);
        const seenCompacted = computeStreak(compacted, W(compactCurrent));
        expect(pick(seen)).toEqual(pick(seenCompacted));
      }),
      { numRuns: RUNS },
    );
  });

  it('settling week by week with the pauses gives the same streak as computing it whole', () => {
    fc.assert(
      fc.property(calendar, (weeks) => {
        const { outcomes, paused } = split(weeks);
        const settled = outcomes.reduce<Streak>(
          (s, o) => settleWeek(s, `g-${o.weekStart}`, o, paused).streak,
          NO_STREAK,
        );
        expect(settled).toEqual(computeStreak(outcomes, undefined, paused));
      }),
      { numRuns: RUNS },
    );
  });

  it('without pauses nothing changes', () => {
    fc.assert(
      fc.property(calendar, fc.nat(40), (weeks, at) => {
        const { outcomes } = split(weeks.map((k) => (k === 'paused' ? 'none' : k)));
        expect(computeStreak(outcomes, W(at), new Set())).toEqual(computeStreak(outcomes, W(at)));
      }),
      { numRuns: RUNS },
    );
  });

  it('two completed weeks around a paused one make a streak of 2, and it lives on through the week after', () => {
    const outcomes: WeekOutcome[] = [
      { weekStart: W(0), result: 'completed' },
      { weekStart: W(2), result: 'completed' },
    ];
    expect(computeStreak(outcomes, W(3), new Set([W(1)])).current).toBe(2);
    expect(computeStreak(outcomes, W(3)).current).toBe(1);
    // A completed week then a paused one: during the week after the pause the streak is still 1; without it, 0.
    expect(computeStreak(outcomes.slice(0, 1), W(2), new Set([W(1)])).current).toBe(1);
    expect(computeStreak(outcomes.slice(0, 1), W(2)).current).toBe(0);
  });
});

/** The figures that must agree (lastCompletedWeek is a date on each side's own calendar). */
function pick(s: Streak) {
  return { current: s.current, longest: s.longest };
}
