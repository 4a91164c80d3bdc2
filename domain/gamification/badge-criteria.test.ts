import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { BADGE_TYPES, type BadgeType } from '../badge/badge-type.ts';
import { badgeDecider } from '../badge/decide.ts';
import { type BadgeFacts, badgesNewlyEarned, localStartOf, type RunFact } from './badge-criteria.ts';
import { BADGE_DEFINITIONS } from './badge-definitions.ts';
import { addDays } from './dates.ts';
import type { WeekOutcome } from './streaks.ts';

let n = 0;
const run = (localStart: string, distanceKm = 5): RunFact => ({ runId: `r${++n}`, distanceKm, localStart });
const facts = (runs: RunFact[] = [], weekOutcomes: WeekOutcome[] = []): BadgeFacts => ({ runs, weekOutcomes });
const earned = (f: BadgeFacts) => badgesNewlyEarned(f, []);
const week = (i: number, result: WeekOutcome['result'] = 'completed'): WeekOutcome => ({
  weekStart: addDays('2025-01-06', 7 * i),
  result,
});

describe('badge definitions', () => {
  it('defines all 12 types once, each with a name, description, known icon, colour and criterion', () => {
    expect(BADGE_DEFINITIONS.map((d) => d.badge_type)).toEqual(BADGE_TYPES);
    for (const d of BADGE_DEFINITIONS) {
      expect(d.name && d.description && d.criterion).toBeTruthy();
      expect(d.color).toMatch(/^#[0-9A-F]{6}$/);
      expect(['Trophy', 'Flame', 'Target', 'Star', 'Award', 'Calendar', 'Ghost', 'TrendingUp', 'Sunrise']).toContain(
        d.icon,
      );
    }
  });
});

describe('badge criteria', () => {
  it('awards nothing to a new user', () => {
    expect(earned(facts())).toEqual([]);
  });
  it('first_run on any run, however short', () => {
    expect(earned(facts([run('2025-03-04T18:00', 0.3)]))).toEqual(['first_run']);
  });
  it('first_goal and streak_week_1 on the first completed week', () => {
    expect(earned(facts([], [week(0)]))).toEqual(['first_goal', 'streak_week_1']);
    expect(earned(facts([], [week(0, 'missed')]))).toEqual([]);
  });
  it('streak_week_4 and _8 on consecutive completed weeks only', () => {
    const four = [0, 1, 2, 3].map((i) => week(i));
    expect(earned(facts([], four))).toContain('streak_week_4');
    expect(earned(facts([], [week(0), week(1), week(2), week(4)]))).not.toContain('streak_week_4');
    const eight = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => week(i));
    expect(earned(facts([], eight))).toContain('streak_week_8');
    expect(earned(facts([], eight.slice(1)))).not.toContain('streak_week_8');
  });
  it('distance_100 at 100 km lifetime, summed exactly', () => {
    const runs = Array.from({ length: 1000 }, (_, i) => run(`2025-03-0${(i % 7) + 1}T18:00`, 0.1));
    expect(earned(facts(runs))).toContain('distance_100');
    expect(earned(facts(runs.slice(1)))).not.toContain('distance_100');
  });
  it('half_marathon on one run of 21.0975 km or more', () => {
    expect(earned(facts([run('2025-03-04T18:00', 21.1)]))).toContain('half_marathon');
    expect(earned(facts([run('2025-03-04T18:00', 21.09)]))).not.toContain('half_marathon');
    expect(earned(facts([run('2025-03-04T18:00', 15), run('2025-03-05T18:00', 15)]))).not.toContain('half_marathon');
  });
  it('perfect_week on a qualifying run each day Monday to Sunday of one week', () => {
    const days = [3, 4, 5, 6, 7, 8, 9].map((d) => run(`2025-03-${String(d).padStart(2, '0')}T18:00`));
    expect(earned(facts(days))).toContain('perfect_week');
    // Tuesday to the next Monday: 7 days in a row, but across two weeks.
    const shifted = [4, 5, 6, 7, 8, 9, 10].map((d) => run(`2025-03-${String(d).padStart(2, '0')}T18:00`));
    expect(earned(facts(shifted))).not.toContain('perfect_week');
    expect(earned(facts([...days.slice(1), run('2025-03-03T18:00', 0.5)]))).not.toContain('perfect_week');
  });
  it('weekend_warrior on a Saturday and the following Sunday', () => {
    expect(earned(facts([run('2025-03-08T09:00'), run('2025-03-09T09:00')]))).toContain('weekend_warrior');
    expect(earned(facts([run('2025-03-09T09:00'), run('2025-03-15T09:00')]))).not.toContain('weekend_warrior');
  });
  it('early_bird on a start from 04:00 to 06:59 local', () => {
    expect(earned(facts([run('2025-03-04T06:59')]))).toContain('early_bird');
    expect(earned(facts([run('2025-03-04T04:00')]))).toContain('early_bird');
    expect(earned(facts([run('2025-03-04T07:00')]))).not.toContain('early_bird');
    expect(earned(facts([run('2025-03-04T02:30')]))).not.toContain('early_bird');
    expect(earned(facts([run('2025-03-04T06:00', 0.99)]))).not.toContain('early_bird');
  });
  it('halloween_run on 31 October local date, using the user time zone', () => {
    expect(earned(facts([run('2025-10-31T19:00')]))).toContain('halloween_run');
    // 02:00 UTC on 1 November is still Halloween evening in New York.
    const local = localStartOf('2025-11-01T02:00:00Z', 'America/New_York');
    expect(local).toBe('2025-10-31T22:00:00');
    expect(earned(facts([run(local)]))).toContain('halloween_run');
    expect(earned(facts([run(localStartOf('2025-11-01T02:00:00Z', 'Europe/Paris'))]))).not.toContain('halloween_run');
  });
  it('comeback_kid on a completed week right after a missed one', () => {
    expect(earned(facts([], [week(0, 'missed'), week(1)]))).toContain('comeback_kid');
    expect(earned(facts([], [week(0, 'missed'), week(2)]))).not.toContain('comeback_kid');
    expect(earned(facts([], [week(1), week(0, 'missed')]))).toContain('comeback_kid');
  });
  it('skips badges already earned', () => {
    expect(badgesNewlyEarned(facts([run('2025-10-31T06:00')]), ['first_run'])).toEqual(['early_bird', 'halloween_run']);
  });
});

describe('badges are never awarded twice', () => {
  const runFact = fc
    .record({ day: fc.nat(400), hour: fc.nat(23), hundredths: fc.integer({ min: 0, max: 2500 }) })
    .map(({ day, hour, hundredths }) =>
      run(`${addDays('2025-01-01', day)}T${String(hour).padStart(2, '0')}:00`, hundredths / 100),
    );
  const outcome = fc
    .record({ i: fc.nat(30), ok: fc.boolean() })
    .map(({ i, ok }) => week(i, ok ? 'completed' : 'missed'));
  const step = fc.oneof(
    runFact.map((r) => ({ run: r })),
    outcome.map((o) => ({ outcome: o })),
  );

  it('under any sequence of new facts, each award is accepted and each type awarded at most once', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let state = badgeDecider.initialState;
        const runs: RunFact[] = [];
        const outcomes: WeekOutcome[] = [];
        const awarded: BadgeType[] = [];
        for (const s of steps) {
          if ('run' in s) runs.push(s.run);
          else outcomes.push(s.outcome);
          for (const type of badgesNewlyEarned({ runs, weekOutcomes: outcomes }, state.badges.keys())) {
            const result = badgeDecider.decide(
              {
                type: 'AwardBadge',
                userId: 'u',
                badgeId: `b-${type}`,
                badgeType: type,
                now: Temporal.Instant.from('2025-03-03T10:00:00Z'),
              },
              state,
            );
            expect(isRight(result)).toBe(true);
            if (isRight(result)) state = result.right.reduce(badgeDecider.evolve, state);
            awarded.push(type);
          }
        }
        expect(new Set(awarded).size).toBe(awarded.length);
        expect(badgesNewlyEarned({ runs, weekOutcomes: outcomes }, state.badges.keys())).toEqual([]);
      }),
    );
  });
});
