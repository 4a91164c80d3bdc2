import { useId } from 'react';
import type { LatLon } from '../track/route-projection.ts';
import { pathData, projectRoute } from '../track/route-projection.ts';

/**
 * A run's route drawn from its GPS fixes as SVG (no map tiles, so it works offline): the line on a soft grid, a
 * green start and a chequered finish. `thumb` is the small tile of the history rows (decorative there: the row says
 * what it is).
 */
export function RouteMap({
  track,
  label,
  variant = 'full',
}: {
  readonly track: readonly LatLon[];
  readonly label: string;
  readonly variant?: 'full' | 'thumb';
}) {
  const id = useId();
  const thumb = variant === 'thumb';
  const width = thumb ? 64 : 340;
  const height = thumb ? 64 : 200;
  const points = projectRoute(track, { width, height, padding: thumb ? 8 : 18 });
  const start = points[0];
  const finish = points[points.length - 1];
  return (
    <svg
      className={thumb ? 'route-map route-thumb' : 'route-map'}
      viewBox={`0 0 ${width} ${height}`}
      role={thumb ? undefined : 'img'}
      aria-label={thumb ? undefined : label}
      aria-hidden={thumb ? true : undefined}
      preserveAspectRatio="xMidYMid meet"
    >
      <defs>
        <pattern id={`${id}-grid`} width={thumb ? 16 : 24} height={thumb ? 16 : 24} patternUnits="userSpaceOnUse">
          <path d={thumb ? 'M16 0H0V16' : 'M24 0H0V24'} fill="none" className="route-grid" />
        </pattern>
      </defs>
      <rect width={width} height={height} fill={`url(#${id}-grid)`} className="route-ground" />
      {points.length > 1 ? (
        <>
          <path d={pathData(points)} className="route-casing" strokeWidth={thumb ? 5 : 8} />
          <path d={pathData(points)} className="route-line" strokeWidth={thumb ? 2.5 : 4} />
        </>
      ) : null}
      {start && !thumb ? <circle cx={start.x} cy={start.y} r={7} className="route-start" /> : null}
      {finish && points.length > 1 ? (
        <g className="route-finish" transform={`translate(${finish.x} ${finish.y})`}>
          <circle r={thumb ? 3.5 : 7} />
          {thumb ? null : <path d="M-3.5 -3.5h3.5v3.5h-3.5zM0 0h3.5v3.5h-3.5z" className="route-finish-check" />}
        </g>
      ) : null}
    </svg>
  );
}
