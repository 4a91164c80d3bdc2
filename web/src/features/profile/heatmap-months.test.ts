import { describe, expect, it } from 'vitest';
import { activityHeatmap } from '../../../../domain/stats/heatmap.ts';
import { monthLabels } from './heatmap-months.ts';

describe('monthLabels', () => {
  it('labels each column holding a month’s first day, once per month; not the first column when the next is near', () => {
    const cells = activityHeatmap([], '2026-11-26');
    const labels = monthLabels(cells);
    expect(labels).toHaveLength(cells.length / 7);
    // The grid starts on Monday Aug 24: September's label is one column later, no room for August's.
    expect(labels.filter((l) => l !== '')).toEqual(['Sep', 'Oct', 'Nov']);
    // Sep 1 2026 is a Tuesday: the column of Monday Aug 31.
    const september = labels.indexOf('Sep');
    expect(cells[september * 7]!.date).toBe('2026-08-31');
  });

  it('labels the first column with its month when the next month starts weeks later', () => {
    // A window ending Dec 8 2026 starts Sep 10: the grid's first column is Monday Sep 7, October's is 3 columns on.
    const labels = monthLabels(activityHeatmap([], '2026-12-08'));
    expect(labels.indexOf('Oct')).toBe(3);
    expect(labels[0]).toBe('Sep');
    expect(labels.filter((l) => l !== '')).toEqual(['Sep', 'Oct', 'Nov', 'Dec']);
  });
});
