/** One measured row of the store bench. */
export interface StoreBenchRow {
  readonly name: string;
  readonly ours: number;
  readonly raw: number;
  readonly emmett: number;
  readonly target: string;
}

const format = (n: number) => Math.round(n).toLocaleString('en-US');
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');

/** Prints the bench rows as a plain-text table with ratios and the targets beside them. */
export function printStoreTable(
  rows: readonly StoreBenchRow[],
  lost: { ours: string; emmett: string; target: string },
): void {
  const header = ['', 'ours', 'raw PostgreSQL', 'Emmett 0.42', 'ours÷raw', 'ours÷Emmett', 'target'];
  const body = rows.map((r) => [
    r.name,
    format(r.ours),
    format(r.raw),
    format(r.emmett),
    ratio(r.ours, r.raw),
    ratio(r.ours, r.emmett),
    r.target,
  ]);
  body.push(['events lost by rebuild under concurrent appends', lost.ours, '—', lost.emmett, '', '', lost.target]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}`);
  for (const row of body) console.log(line(row));
}
