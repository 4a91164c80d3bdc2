import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { milestoneFor, milestoneText, NO_MILESTONE_TEXT } from './milestones.ts';
import { paceSecPerKm, runTotals, speedKmh } from './run-totals.ts';

describe('run totals', () => {
  it('sums runs and derives average pace and speed from the totals', () => {
    expect(
      runTotals([
        { distance_km: 5, duration_sec: 1500 },
        { distance_km: 10.1, duration_sec: 3000 },
        { distance_km: 0.2, duration_sec: 60 },
      ]),
    ).toEqual({
      total_runs: 3,
      total_distance_km: 15.3,
      total_duration_sec: 4560,
      average_pace_sec_per_km: 298,
      average_speed_kmh: 12.08,
    });
  });
  it('is null-safe for no runs, zero distance or zero time', () => {
    expect(runTotals([])).toEqual({
      total_runs: 0,
      total_distance_km: 0,
      total_duration_sec: 0,
      average_pace_sec_per_km: null,
      average_speed_kmh: null,
    });
    expect(paceSecPerKm(0, 100)).toBeNull();
    expect(speedKmh(5, 0)).toBeNull();
  });
  it('never yields NaN or Infinity', () => {
    const figures = fc.record({
      distance_km: fc.double({ min: 0, max: 100, noNaN: true }),
      duration_sec: fc.nat(100_000),
    });
    fc.assert(
      fc.property(fc.array(figures, { maxLength: 10 }), (runs) => {
        const t = runTotals(runs);
        for (const v of [t.average_pace_sec_per_km, t.average_speed_kmh])
          if (v !== null) expect(Number.isFinite(v)).toBe(true);
      }),
    );
  });
});

describe('distance milestones', () => {
  it('names the longest milestone reached, exactly at the boundary', () => {
    expect(milestoneText(42.195)).toBe('You ran a marathon distance this week!');
    expect(milestoneText(42.19)).toBe('You ran a half marathon distance this week!');
    expect(milestoneText(21.0975)).toBe('You ran a half marathon distance this week!');
    expect(milestoneText(10)).toBe('You ran a 10K distance this week!');
    expect(milestoneText(5.5)).toBe('You ran a 5K distance this week!');
    expect(milestoneText(3.2)).toBe('You ran 2 miles this week!');
    expect(milestoneText(1.61)).toBe('You ran a mile this week!');
    expect(milestoneText(1.6)).toBe(NO_MILESTONE_TEXT);
    expect(milestoneFor(0)).toBeNull();
  });
});
