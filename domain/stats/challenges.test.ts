import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { type ChallengeMember, type ChallengeRun, challengeFigures, fastestOver } from './challenges.ts';

const week = { from: '2025-03-03T05:00:00Z', to: '2025-03-10T04:00:00Z' };
const ann: ChallengeMember = { user_id: 'ann', display_name: 'Ann', current_streak: 2, longest_streak: 5 };
const bob: ChallengeMember = { user_id: 'bob', display_name: 'Bob', current_streak: 3, longest_streak: 3 };
const cat: ChallengeMember = { user_id: 'cat', display_name: 'Cat', current_streak: 0, longest_streak: 0 };
const r = (
  user_id: string,
  distance_km: number,
  duration_sec: number,
  started_at = '2025-03-04T12:00:00Z',
): ChallengeRun => ({
  user_id,
  distance_km,
  duration_sec,
  started_at,
});

describe('challenge figures', () => {
  const runs = [
    r('ann', 5, 1500),
    r('ann', 10.5, 3150),
    r('ann', 4, 900, '2025-03-01T12:00:00Z'), // last week: not this week's distance
    r('bob', 6, 1620),
    r('bob', 3, 600),
    r('eve', 50, 9000), // not a member
  ];
  const figures = challengeFigures([ann, bob, cat], runs, week);

  it('ranks this week distance, members without runs at 0', () => {
    expect(figures.weeklyDistance).toEqual([
      { user_id: 'ann', display_name: 'Ann', distance_km: 15.5 },
      { user_id: 'bob', display_name: 'Bob', distance_km: 9 },
      { user_id: 'cat', display_name: 'Cat', distance_km: 0 },
    ]);
  });
  it('ranks streaks by current, then longest', () => {
    expect(figures.streaks.map((s) => s.user_id)).toEqual(['bob', 'ann', 'cat']);
  });
  it('takes the fastest pace over runs at least 5 km and 10 km long, with the time for that distance', () => {
    expect(figures.fastestPaces).toEqual([
      {
        user_id: 'bob',
        display_name: 'Bob',
        fastest_5k_pace: 270,
        fastest_5k_time: 1350,
        fastest_10k_pace: null,
        fastest_10k_time: null,
      },
      {
        user_id: 'ann',
        display_name: 'Ann',
        fastest_5k_pace: 300,
        fastest_5k_time: 1500,
        fastest_10k_pace: 300,
        fastest_10k_time: 3000,
      },
      {
        user_id: 'cat',
        display_name: 'Cat',
        fastest_5k_pace: null,
        fastest_5k_time: null,
        fastest_10k_pace: null,
        fastest_10k_time: null,
      },
    ]);
  });
  it('ignores a run just short of the distance and a run with no time', () => {
    expect(fastestOver([r('ann', 4.99, 600), r('ann', 5, 0)], 5)).toEqual({ pace: null, time: null });
  });
  it('is null-safe: any runs, including zero distance or time, give finite numbers or nulls', () => {
    const run = fc.record({
      user_id: fc.constantFrom('ann', 'bob', 'cat', 'eve'),
      distance_km: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 0, max: 3000 }).map((h) => h / 100),
      ),
      duration_sec: fc.oneof(fc.constant(0), fc.nat(20_000)),
      started_at: fc.constantFrom('2025-03-01T00:00:00Z', '2025-03-05T00:00:00Z'),
    });
    fc.assert(
      fc.property(fc.array(run, { maxLength: 25 }), (rs) => {
        const f = challengeFigures([ann, bob, cat], rs, week);
        expect(f.weeklyDistance).toHaveLength(3);
        for (const row of f.fastestPaces) {
          const pairs: [number | null, number | null][] = [
            [row.fastest_5k_pace, row.fastest_5k_time],
            [row.fastest_10k_pace, row.fastest_10k_time],
          ];
          for (const [pace, time] of pairs) {
            expect(pace === null).toBe(time === null);
            if (pace !== null) expect(Number.isFinite(pace) && pace >= 0 && Number.isFinite(time)).toBe(true);
          }
        }
        for (const row of f.weeklyDistance) expect(Number.isFinite(row.distance_km)).toBe(true);
      }),
    );
  });
});

describe('the week of the distance leaderboard', () => {
  // Runs within a few milliseconds of the week's bounds, with up to nine fractional digits: counted exactly when
  // Temporal says the run started in [from, to).
  const near = (bound: string) =>
    fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 999_999 })).map(([ms, ns]) => {
      const at = Temporal.Instant.from(bound).add({ nanoseconds: ms * 1_000_000 + ns });
      return at.toString({ fractionalSecondDigits: ns % 7 === 0 ? 'auto' : 9 });
    });
  it('counts a run exactly when it started inside the week, to the nanosecond (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(near(week.from), near(week.to)), { minLength: 1, maxLength: 8 }), (starts) => {
        const runs = starts.map((at, i) => r('ann', i + 1, 600, at));
        const from = Temporal.Instant.from(week.from);
        const to = Temporal.Instant.from(week.to);
        const expected = starts.reduce((sum, at, i) => {
          const t = Temporal.Instant.from(at);
          return Temporal.Instant.compare(t, from) >= 0 && Temporal.Instant.compare(t, to) < 0 ? sum + i + 1 : sum;
        }, 0);
        const line = challengeFigures([ann], runs, week).weeklyDistance[0]!;
        expect(line.distance_km).toBeCloseTo(expected, 9);
      }),
      { numRuns: 2000 },
    );
  });
});
