import type { LoadFigures } from './load.ts';

/** One printed row: a workload, its figures, and what they are compared with. */
export interface ApiRow {
  readonly name: string;
  readonly connections: number;
  readonly figures: LoadFigures;
  /** The figures of the baseline this row is divided by (null for the baselines themselves). */
  readonly baseline: LoadFigures | null;
  readonly unit?: string;
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : int(n)) : '—');
/** a ÷ b as the table shows it (three decimals below 0.1×, so a small ratio does not read as zero). */
export const ratio = (a: number, b: number) =>
  b > 0 && Number.isFinite(a) ? `${(a / b).toFixed(a / b < 0.1 ? 3 : 2)}×` : '—';

/** Prints the rows as a plain-text table: throughput, p50, p99, the ratio to the baseline, failures. */
export function printApiTable(rows: readonly ApiRow[]): void {
  const header = ['workload', 'conns', 'req/s', 'p50 ms', 'p99 ms', '÷ baseline', 'failed'];
  // A row with no answer in its seconds has no latency to show (autocannon would print 0 ms).
  const answered = (r: ApiRow) => r.figures.completed > 0;
  const body = rows.map((r) => [
    r.name,
    String(r.connections),
    `${int(r.figures.perSecond)}${r.unit ? ` ${r.unit}` : ''}`,
    answered(r) ? ms(r.figures.p50Ms) : '—',
    answered(r) ? ms(r.figures.p99Ms) : '—',
    r.baseline ? ratio(r.figures.perSecond, r.baseline.perSecond) : '',
    String(r.figures.failures),
  ]);
  printTable(header, body);
}

/** Prints a plain-text table, the first column left-aligned and the others right-aligned. */
export function printTable(header: string[], body: string[][]): void {
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}`);
  for (const row of body) console.log(line(row));
}

/** A target line: "<target>: <figure> ✓|✗". */
export function targetLine(target: string, figure: string, met: boolean | null): string {
  return `${target}: ${figure}${met === null ? '' : met ? ' ✓' : ' ✗'}`;
}
