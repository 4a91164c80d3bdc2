import { type GpsPosition, haversineKm } from '../../../../../domain/run/geo.ts';

/** The pace at a distance into the run. */
export interface PacePoint {
  readonly km: number;
  readonly paceSecPerKm: number;
}

/**
 * The run's pace along its distance for a chart: the pace over the `windowKm` behind each of up to `samples`
 * evenly spaced distances (a rolling window smooths the jitter of single GPS legs). Stretches where the runner
 * stood still (no distance) give no point; paces are finite and positive, distances rise from 0 to the track's
 * length.
 */
export function paceSeries(track: readonly GpsPosition[], samples = 60, windowKm = 0.2): PacePoint[] {
  if (track.length < 2 || samples < 1) return [];
  // Cumulative distance and time at each fix.
  const km: number[] = [0];
  for (let i = 1; i < track.length; i++) km.push(km[i - 1]! + haversineKm(track[i - 1]!, track[i]!));
  const total = km[km.length - 1]!;
  if (total <= 0) return [];
  const t0 = track[0]!.timestamp;
  const secAt = (d: number): number => {
    // The time at distance d, interpolated between the fixes around it (km is non-decreasing).
    let lo = 0;
    let hi = km.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (km[mid]! < d) lo = mid;
      else hi = mid;
    }
    const span = km[hi]! - km[lo]!;
    const f = span > 0 ? Math.min(1, Math.max(0, (d - km[lo]!) / span)) : 1;
    return (track[lo]!.timestamp + f * (track[hi]!.timestamp - track[lo]!.timestamp) - t0) / 1000;
  };
  const window = Math.min(windowKm, total);
  const points: PacePoint[] = [];
  for (let s = 1; s <= samples; s++) {
    const at = (total * s) / samples;
    const from = Math.max(0, at - window);
    const sec = secAt(at) - secAt(from);
    const dist = at - from;
    if (dist > 0 && sec > 0) points.push({ km: at, paceSecPerKm: sec / dist });
  }
  return points;
}
