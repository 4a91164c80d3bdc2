import type { HeatmapCell } from '../../../../domain/stats/heatmap.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Columns a label needs before the next one (a label is about three 14 px columns wide). */
const LABEL_COLUMNS = 3;

/**
 * The month labels over the heatmap's week columns (7 cells a column, Monday first): a column is labelled with a
 * month's short name when it holds that month's first day; the first column is labelled with its own month when
 * the next label leaves room for it. Every other column gets an empty label. One label per month, in calendar order.
 */
export function monthLabels(cells: readonly HeatmapCell[]): string[] {
  const columns = Math.ceil(cells.length / 7);
  const labels = Array.from({ length: columns }, (_, c) => {
    const first = cells.slice(c * 7, c * 7 + 7).find((cell) => cell.date.endsWith('-01'));
    return first ? MONTHS[Number(first.date.slice(5, 7)) - 1]! : '';
  });
  const next = labels.findIndex((l) => l !== '');
  if (columns > 0 && labels[0] === '' && (next === -1 || next >= LABEL_COLUMNS))
    labels[0] = MONTHS[Number(cells[0]!.date.slice(5, 7)) - 1]!;
  return labels;
}
