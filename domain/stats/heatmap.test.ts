import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { activityHeatmap } from './heatmap.ts';

const today = '2025-03-05'; // a Wednesday
const day = (offset: number) => Temporal.PlainDate.from(today).add({ days: offset }).toString();

describe('activity heatmap', () => {
  it('covers 90 days ending today in whole Monday–Sunday weeks', () => {
    const cells = activityHeatmap([], today);
    expect(cells.length % 7).toBe(0);
    expect(Temporal.PlainDate.from(cells[0]!.date).dayOfWeek).toBe(1);
    expect(cells.at(-1)!.date).toBe('2025-03-09');
    expect(cells.filter((c) => c.inWindow)).toHaveLength(90);
    expect(cells.filter((c) => c.isToday).map((c) => c.date)).toEqual([today]);
    expect(cells.filter((c) => c.isFuture).map((c) => c.date)).toEqual([
      '2025-03-06',
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
    ]);
  });
  it('counts runs and distance per day and ignores runs outside the window', () => {
    const cells = activityHeatmap(
      [
        { localDate: today, distance_km: 5.1 },
        { localDate: today, distance_km: 0.2 },
        { localDate: day(-90), distance_km: 9 },
        { localDate: day(1), distance_km: 9 },
      ],
      today,
    );
    expect(cells.find((c) => c.date === today)).toMatchObject({ runCount: 2, distanceKm: 5.3 });
    expect(cells.reduce((n, c) => n + c.runCount, 0)).toBe(2);
  });
  it('highlights 3+ consecutive run days mildly and 5+ strongly', () => {
    const runs = [-12, -11, -10, -8, -7, -6, -5, -4, -1].map((o) => ({ localDate: day(o), distance_km: 3 }));
    const h = new Map(activityHeatmap(runs, today).map((c) => [c.date, c.highlight]));
    expect([-12, -11, -10].map((o) => h.get(day(o)))).toEqual(['mild', 'mild', 'mild']);
    expect(h.get(day(-9))).toBe('none');
    expect([-8, -7, -6, -5, -4].map((o) => h.get(day(o)))).toEqual(['strong', 'strong', 'strong', 'strong', 'strong']);
    expect(h.get(day(-1))).toBe('none');
  });
  it('never highlights a day without runs, nor a future day', () => {
    const offset = fc.integer({ min: -95, max: 5 });
    fc.assert(
      fc.property(fc.array(offset, { maxLength: 60 }), (offsets) => {
        const cells = activityHeatmap(
          offsets.map((o) => ({ localDate: day(o), distance_km: 1 })),
          today,
        );
        for (const c of cells) {
          if (c.runCount === 0) expect(c.highlight).toBe('none');
          if (c.isFuture || !c.inWindow) expect(c.runCount).toBe(0);
        }
      }),
    );
  });
});
