import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { goalSettlesAt, maySettle, settlementMoment } from './settlement.ts';
import { weekStartingOn } from './week.ts';

/** Whether the week has ended in its zone (its end is exclusive, so at the end it has). */
const isWeekOverInZone = (weekStart: string, timeZone: string, now: Temporal.Instant) =>
  Temporal.Instant.compare(now, weekStartingOn(weekStart, timeZone).end) >= 0;

const at = (s: string) => Temporal.Instant.from(s);

describe('settlement moment', () => {
  it('is Monday 00:00 New York after the week (EDT after the spring switch)', () => {
    expect(settlementMoment('2025-03-03').toString()).toBe('2025-03-10T04:00:00Z');
    expect(settlementMoment('2025-01-06').toString()).toBe('2025-01-13T05:00:00Z');
  });

  it('waits for Honolulu: the NY moment comes but the week is not over there', () => {
    const ny = settlementMoment('2025-03-03');
    expect(isWeekOverInZone('2025-03-03', 'Pacific/Honolulu', ny)).toBe(false);
    expect(maySettle('2025-03-03', 'Pacific/Honolulu', ny)).toBe(false);
    expect(goalSettlesAt('2025-03-03', 'Pacific/Honolulu').toString()).toBe('2025-03-10T10:00:00Z');
  });

  it('Auckland is over long before New York, and still waits for the NY moment', () => {
    expect(isWeekOverInZone('2025-03-03', 'Pacific/Auckland', at('2025-03-09T11:00:00Z'))).toBe(true);
    expect(maySettle('2025-03-03', 'Pacific/Auckland', at('2025-03-09T11:00:00Z'))).toBe(false);
    expect(goalSettlesAt('2025-03-03', 'Pacific/Auckland').equals(settlementMoment('2025-03-03'))).toBe(true);
  });

  it('property: a goal is never settleable before its week has ended in its zone nor before the NY moment', () => {
    const zones = ['America/New_York', 'Pacific/Honolulu', 'Pacific/Auckland', 'Europe/London', 'Australia/Sydney'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1500 }),
        fc.constantFrom(...zones),
        fc.integer({ min: -3 * 86_400, max: 3 * 86_400 }),
        (weeks, zone, offsetSec) => {
          const weekStart = Temporal.PlainDate.from('2024-01-01').add({ weeks }).toString();
          const now = weekStartingOn(weekStart, zone).end.add({ seconds: offsetSec });
          if (maySettle(weekStart, zone, now)) {
            expect(isWeekOverInZone(weekStart, zone, now)).toBe(true);
            expect(Temporal.Instant.compare(now, settlementMoment(weekStart))).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
  });
});
