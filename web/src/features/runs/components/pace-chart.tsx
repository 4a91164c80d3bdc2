import { type DistanceUnit, kmToMi } from '../../../../../domain/shared/units.ts';
import { formatDuration, formatPace } from '../../../lib/format.ts';
import type { PacePoint } from '../track/pace-series.ts';

const W = 340;
const H = 150;
const PAD = { left: 40, right: 8, top: 10, bottom: 22 };

/** The seconds per `unit` of a pace per km. */
const perUnit = (secPerKm: number, unit: DistanceUnit) => (unit === 'mi' ? secPerKm / kmToMi(1) : secPerKm);

/**
 * The pace along the run as an SVG area chart: faster is higher (as runners read pace charts), the average as a
 * dashed line, the fastest and slowest paces and the distance marked on the axes. Labels carry no unit: the
 * heading above the chart names it.
 */
export function PaceChart({ series, unit }: { readonly series: readonly PacePoint[]; readonly unit: DistanceUnit }) {
  if (series.length < 2) return null;
  const paces = series.map((p) => p.paceSecPerKm);
  const fastest = Math.min(...paces);
  const slowest = Math.max(...paces);
  const average = paces.reduce((a, b) => a + b, 0) / paces.length;
  // A little room above and below, and never a flat zero-height range.
  const spread = Math.max(slowest - fastest, 20);
  const top = fastest - spread * 0.15;
  const bottom = slowest + spread * 0.15;
  const totalKm = series[series.length - 1]!.km;
  const total = unit === 'mi' ? kmToMi(totalKm) : totalKm;
  const x = (km: number) => PAD.left + (km / totalKm) * (W - PAD.left - PAD.right);
  const y = (pace: number) => PAD.top + ((pace - top) / (bottom - top)) * (H - PAD.top - PAD.bottom);
  const line = series.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.km).toFixed(1)} ${y(paces[i]!).toFixed(1)}`).join(' ');
  const base = (H - PAD.bottom).toFixed(1);
  const area = `${line} L${x(totalKm).toFixed(1)} ${base} L${x(series[0]!.km).toFixed(1)} ${base} Z`;
  const summary = `Pace chart: starts at ${formatPace(paces[0]!, unit)}, fastest ${formatPace(fastest, unit)}, slowest ${formatPace(slowest, unit)}, average ${formatPace(average, unit)}`;
  return (
    <svg className="pace-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
      <path d={area} className="pace-area" />
      <path d={line} className="pace-line" />
      <line x1={PAD.left} x2={W - PAD.right} y1={y(average)} y2={y(average)} className="pace-average" />
      <text x={PAD.left - 6} y={y(fastest) + 4} textAnchor="end" className="chart-label">
        {formatDuration(perUnit(fastest, unit))}
      </text>
      <text x={PAD.left - 6} y={y(slowest) + 4} textAnchor="end" className="chart-label">
        {formatDuration(perUnit(slowest, unit))}
      </text>
      <text x={PAD.left} y={H - 6} className="chart-label">
        0
      </text>
      <text x={W - PAD.right} y={H - 6} textAnchor="end" className="chart-label">
        {total.toFixed(2)} {unit}
      </text>
    </svg>
  );
}
