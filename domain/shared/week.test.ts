import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { isWithinWeek, nextWeekStart, weekContaining, weekStartingOn, weekStartOf } from './week.ts';

const zones = [
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'Pacific/Auckland',
  'Pacific/Honolulu',
  'America/Santiago',
  'Asia/Kolkata',
  'UTC',
];

/** DST switches of 2024–2026 in the zones above, so instants cluster where bugs live. */
const switches = [
  '2025-03-09T07:00:00Z', // US spring forward
  '2025-11-02T06:00:00Z', // US fall back
  '2025-03-30T01:00:00Z', // EU spring forward
  '2025-10-26T01:00:00Z', // EU fall back
  '2025-04-05T16:00:00Z', // Sydney back
  '2025-10-04T16:00:00Z', // Sydney forward
  '2025-04-05T14:00:00Z', // Auckland back
  '2025-09-27T14:00:00Z', // Auckland forward
  '2024-09-08T04:00:00Z', // Santiago forward (midnight skipped)
].map((s) => Temporal.Instant.from(s).epochMilliseconds);

const DAY = 86_400_000;
const instantArb = fc.oneof(
  fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
  fc.tuple(fc.constantFrom(...switches), fc.integer({ min: -8 * DAY, max: 8 * DAY })).map(([s, d]) => s + d),
);

describe('week calendar', () => {
  it('a Monday in New York', () => {
    const week = weekContaining(Temporal.Instant.from('2025-03-12T15:00:00Z'), 'America/New_York');
    expect(week.weekStart).toBe('2025-03-10');
    expect(week.start.toString()).toBe('2025-03-10T04:00:00Z');
    expect(week.end.toString()).toBe('2025-03-17T04:00:00Z');
  });

  it('Sunday 23:59 local belongs to the week that began six days earlier', () => {
    expect(weekStartOf(Temporal.Instant.from('2025-03-17T03:59:00Z'), 'America/New_York')).toBe('2025-03-10');
    expect(weekStartOf(Temporal.Instant.from('2025-03-17T04:00:00Z'), 'America/New_York')).toBe('2025-03-17');
  });

  it('the same instant is in different weeks in Auckland and Honolulu', () => {
    const t = Temporal.Instant.from('2025-03-09T12:00:00Z'); // Mon 01:00 Auckland, Sun 02:00 Honolulu
    expect(weekStartOf(t, 'Pacific/Auckland')).toBe('2025-03-10');
    expect(weekStartOf(t, 'Pacific/Honolulu')).toBe('2025-03-03');
  });

  it('a DST week has 167 hours in spring and 169 in autumn', () => {
    const spring = weekStartingOn('2025-03-03', 'America/New_York');
    const autumn = weekStartingOn('2025-10-27', 'America/New_York');
    expect(spring.start.until(spring.end).total('hours')).toBe(167);
    expect(autumn.start.until(autumn.end).total('hours')).toBe(169);
  });

  it('next week start is the following Monday', () => {
    expect(nextWeekStart(Temporal.Instant.from('2025-03-16T12:00:00Z'), 'Europe/London')).toBe('2025-03-17');
  });

  it('refuses a week start that is not a Monday', () => {
    expect(() => weekStartingOn('2025-03-11', 'UTC')).toThrow(RangeError);
  });

  it('property: every instant lies in its week, which spans 7 local days from Monday 00:00', () => {
    fc.assert(
      fc.property(instantArb, fc.constantFrom(...zones), (ms, zone) => {
        const t = Temporal.Instant.fromEpochMilliseconds(ms);
        const week = weekContaining(t, zone);
        expect(isWithinWeek(t, week)).toBe(true);
        const start = week.start.toZonedDateTimeISO(zone);
        const end = week.end.toZonedDateTimeISO(zone);
        expect(start.dayOfWeek).toBe(1);
        expect(end.dayOfWeek).toBe(1);
        expect(start.toPlainDate().until(end.toPlainDate()).total('days')).toBe(7);
        const hours = week.start.until(week.end).total('hours');
        expect(hours).toBeGreaterThanOrEqual(167);
        expect(hours).toBeLessThanOrEqual(169);
        // Consecutive weeks tile the line: this week's end is the next week's start.
        expect(weekStartingOn(nextWeekStart(t, zone), zone).start.equals(week.end)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
