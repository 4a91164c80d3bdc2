import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { addDays, compareDates, mondayOf } from './dates.ts';

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
      }),
      { numRuns: 2000 },
    );
  });

  it('still refuses what is not a date, as Temporal does', () => {
    for (const bad of ['2026-02-30', '2026-13-01', 'Monday', '26-1-5'])
      expect(() => addDays(bad, 1), bad).toThrow(RangeError);
    expect(() => compareDates('2026-02-30', '2026-03-01')).toThrow(RangeError);
  });
});
