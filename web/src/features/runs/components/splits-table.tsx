import type { DistanceUnit } from '../../../../../domain/shared/units.ts';
import { kmToMi } from '../../../../../domain/shared/units.ts';
import { formatDuration } from '../../../lib/format.ts';
import type { Split } from '../track/splits.ts';

/**
 * Per-km (or per-mile) splits: the split, its pace with a bar (longer is faster, relative to the run's fastest
 * split) and its time. A last part-split shows its length. Paces carry no unit: the column header names it.
 */
export function SplitsTable({ splits, unit }: { readonly splits: readonly Split[]; readonly unit: DistanceUnit }) {
  if (splits.length === 0) return null;
  const pace = (s: Split) =>
    s.paceSecPerKm === null ? null : unit === 'mi' ? s.paceSecPerKm / kmToMi(1) : s.paceSecPerKm;
  const paces = splits.map(pace).filter((p): p is number => p !== null);
  const fastest = Math.min(...paces);
  const slowest = Math.max(...paces);
  return (
    <table className="splits">
      <caption className="visually-hidden">Splits per {unit === 'mi' ? 'mile' : 'km'}</caption>
      <thead>
        <tr>
          <th scope="col">{unit === 'mi' ? 'Mile' : 'Km'}</th>
          <th scope="col">Pace (/{unit})</th>
          <th scope="col" className="numeric">
            Time
          </th>
        </tr>
      </thead>
      <tbody>
        {splits.map((s) => {
          const p = pace(s);
          // 40–100 % of the cell: the slowest split still shows a bar.
          const share = p === null ? 0 : slowest === fastest ? 1 : 0.4 + (0.6 * (slowest - p)) / (slowest - fastest);
          const length = unit === 'mi' ? kmToMi(s.distanceKm) : s.distanceKm;
          return (
            <tr key={s.index}>
              <th scope="row">{s.complete ? s.index : length.toFixed(2)}</th>
              <td>
                <span className="split-pace">
                  <span className="split-bar" style={{ width: `${Math.round(share * 100)}%` }} aria-hidden="true" />
                  <span>{p === null ? '—' : formatDuration(p)}</span>
                </span>
              </td>
              <td className="numeric">{formatDuration(s.durationSec)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
