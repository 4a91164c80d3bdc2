import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { addWeeks, weekStartingOn, weekStartOf } from '../shared/week.ts';
import { earliestPausableWeek, isMonday, isPauseNoticeGiven } from './pause-horizon.ts';

// Zones with DST switches of an hour (both hemispheres), of half an hour (Lord Howe), at midnight (Santiago, Havana:
// the Monday's 00:00 can be skipped), a whole skipped day (Apia, 2011), and fixed ones.
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'America/Santiago',
  'America/Havana',
  'Pacific/Apia',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'America/St_Johns',
  'UTC',
];
const zone = fc.constantFrom(...ZONES);
const FROM = Date.parse('2010-01-01T00:00:00Z');
const TO = Date.parse('2036-01-01T00:00:00Z');
const instant = fc.integer({ min: FROM, max: TO }).map((ms) => Temporal.Instant.fromEpochMilliseconds(ms));
/** A Monday within a few weeks of `now` in `timeZone`, the range a runner picks from. */
const mondayNear = (now: Temporal.Instant, timeZone: string, offset: number) =>
  addWeeks(weekStartOf(now, timeZone), offset);
const HOUR_MS = 3_600_000;
const RUNS = Number(process.env.PROPERTY_RUNS ?? 800);

describe('the 7-day pause horizon (issue 25)', () => {
  it('the earliest pausable week is a Monday, far enough ahead, and the Monday before it is not', () => {
    fc.assert(
      fc.property(instant, zone, (now, timeZone) => {
        const earliest = earliestPausableWeek(now, timeZone);
        expect(isMonday(earliest)).toBe(true);
        expect(isPauseNoticeGiven(earliest, timeZone, now)).toBe(true);
        expect(isPauseNoticeGiven(addWeeks(earliest, -1), timeZone, now)).toBe(false);
        // Never this week, never later than the week after next.
        const thisWeek = weekStartOf(now, timeZone);
        expect([addWeeks(thisWeek, 1), addWeeks(thisWeek, 2)]).toContain(earliest);
      }),
      { numRuns: RUNS },
    );
  });

  it('a week may be paused exactly when it is the earliest week named in the refusal, or later', () => {
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: -2, max: 6 }), (now, timeZone, offset) => {
        const monday = mondayNear(now, timeZone, offset);
        const earliest = earliestPausableWeek(now, timeZone);
        expect(isPauseNoticeGiven(monday, timeZone, now)).toBe(monday >= earliest);
      }),
      { numRuns: RUNS },
    );
  });

  it('"7 days ahead" is 7 days on the wall clock: 168 hours exactly without a DST switch, near it across one', () => {
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: 0, max: 4 }), (now, timeZone, offset) => {
        const monday = mondayNear(now, timeZone, offset);
        const aheadMs = weekStartingOn(monday, timeZone).start.epochMilliseconds - now.epochMilliseconds;
        const given = isPauseNoticeGiven(monday, timeZone, now);
        if (given) expect(aheadMs).toBeGreaterThanOrEqual(168 * HOUR_MS - HOUR_MS * 24);
        if (!given) expect(aheadMs).toBeLessThan(168 * HOUR_MS + HOUR_MS * 24);
        const offsetNow = now.toZonedDateTimeISO(timeZone).offsetNanoseconds;
        const offsetThen = now.toZonedDateTimeISO(timeZone).add({ days: 7 }).offsetNanoseconds;
        if (offsetNow === offsetThen) expect(given).toBe(aheadMs >= 168 * HOUR_MS);
      }),
      { numRuns: RUNS },
    );
  });

  it('notice given now is given at every earlier instant (waiting never makes a refused pause acceptable)', () => {
    fc.assert(
      fc.property(
        instant,
        zone,
        fc.integer({ min: 0, max: 30 * 24 * HOUR_MS }),
        fc.integer({ min: 0, max: 4 }),
        (now, timeZone, earlierBy, offset) => {
          const monday = mondayNear(now, timeZone, offset);
          const earlier = now.subtract({ milliseconds: earlierBy });
          if (isPauseNoticeGiven(monday, timeZone, now))
            expect(isPauseNoticeGiven(monday, timeZone, earlier)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
