import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { addDays, compareDates, dayOfWeekOf, localHourOf, mondayOf } from './dates.ts';

/** The helpers' answers through Temporal alone, as they were written first. */
const byTemporal = {
  addDays: (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString(),
  compareDates: (a: string, b: string) =>
    Temporal.PlainDate.compare(Temporal.PlainDate.from(a), Temporal.PlainDate.from(b)),
  mondayOf: (date: string) => {
    const day = Temporal.PlainDate.from(date);
    return day.subtract({ days: day.dayOfWeek - 1 }).toString();
  },
};

const date = fc
  .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
/** Dates near month, year and century ends, where calendars go wrong. */
const edgy = fc.oneof(
  date,
  fc.constantFrom('2024-02-29', '2023-02-28', '1900-02-28', '2000-02-29', '1999-12-31', '2026-12-28', '9999-12-31'),
);

describe('calendar date helpers give what Temporal gives', () => {
  it('addDays, compareDates and mondayOf for any dates (property)', () => {
    fc.assert(
      fc.property(edgy, edgy, fc.integer({ min: -800, max: 800 }), (a, b, days) => {
        expect(addDays(a, days)).toBe(byTemporal.addDays(a, days));
        expect(Math.sign(compareDates(a, b))).toBe(Math.sign(byTemporal.compareDates(a, b)));
        expect(mondayOf(a)).toBe(byTemporal.mondayOf(a));
        expect(dayOfWeekOf(a)).toBe(Temporal.PlainDate.from(a).dayOfWeek);
      }),
      { numRuns: 2000 },
    );
  });

  it('localHourOf gives the hour Temporal reads, for any local start a zone gives (property)', () => {
    const zone = fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham');
    const instant = fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, zone, fc.boolean(), (at, timeZone, trimmed) => {
        const zoned = Temporal.Instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(timeZone);
        const text = zoned.toPlainDateTime().toString(trimmed ? { smallestUnit: 'minute' } : {});
        expect(localHourOf(text)).toBe(zoned.hour);
      }),
      { numRuns: 2000 },
    );
  });

  it('localHourOf refuses what is not a local date-time, as Temporal does', () => {
    for (const good of ['2026-03-29T02:30', '2026-11-01T01:59:59.123', '+002026-01-05T07:00'])
      expect(localHourOf(good), good).toBe(Temporal.PlainDateTime.from(good).hour);
    for (const bad of ['2026-02-30T06:00', '2026-01-05T24:00', '2026-01-05T06:60', '2026-01-05T06:00:61', 'six'])
      expect(() => localHourOf(bad), bad).toThrow(RangeError);
  });

  it('still refuses what is not a date, as Temporal does', () => {
    for (const bad of ['2026-02-30', '2026-13-01', 'Monday', '26-1-5'])
      expect(() => addDays(bad, 1), bad).toThrow(RangeError);
    expect(() => compareDates('2026-02-30', '2026-03-01')).toThrow(RangeError);
  });
});
