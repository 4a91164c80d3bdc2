/** The part of a run that statistics need (§3 run; distances in km, durations in seconds). */
export interface RunFigures {
  readonly distance_km: number;
  readonly duration_sec: number;
}

/** The stats object of the goal stats response (§3). */
export interface RunTotals {
  readonly total_runs: number;
  /** 2 decimals. */
  readonly total_distance_km: number;
  readonly total_duration_sec: number;
  /** Whole seconds per km; null when no distance was run. */
  readonly average_pace_sec_per_km: number | null;
  /** km/h to 2 decimals; null when no time was run. */
  readonly average_speed_kmh: number | null;
}

/** Pace in whole seconds per km, or null when the distance is not positive (no division by zero, ever). */
export function paceSecPerKm(distanceKm: number, durationSec: number): number | null {
  if (!(distanceKm > 0) || !(durationSec > 0)) return null;
  return Math.round(durationSec / distanceKm);
}

/** Speed in km/h to 2 decimals, or null when the time or distance is not positive. */
export function speedKmh(distanceKm: number, durationSec: number): number | null {
  if (!(distanceKm > 0) || !(durationSec > 0)) return null;
  return Math.round((distanceKm / (durationSec / 3600)) * 100) / 100;
}

/**
 * Totals and averages over runs. The averages are total time over total distance (not a mean of per-run paces),
 * so one short sprint does not skew a week of long runs.
 */
export function runTotals(runs: readonly RunFigures[]): RunTotals {
  // Sum distance in hundredths of a km: runs are stored to 2 decimals (§5), so the sum is exact.
  const hundredths = runs.reduce((sum, r) => sum + Math.max(0, Math.round(r.distance_km * 100)), 0);
  const seconds = runs.reduce((sum, r) => sum + Math.max(0, Math.round(r.duration_sec)), 0);
  const km = hundredths / 100;
  return {
    total_runs: runs.length,
    total_distance_km: km,
    total_duration_sec: seconds,
    average_pace_sec_per_km: paceSecPerKm(km, seconds),
    average_speed_kmh: speedKmh(km, seconds),
  };
}
