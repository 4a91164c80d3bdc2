/**
 * The few statistics the API bench prints: latency percentiles from raw samples, and the slope of a series (memory
 * over time, latency over log size) by least squares. Kept pure so they are unit-tested (stats.test.ts).
 */

/**
 * The p-th percentile (0 ≤ p ≤ 100) of `samples` by the nearest-rank method, the one load generators report:
 * the smallest sample with at least p% of the samples at or below it. NaN for no samples.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** The slope of the least-squares line through the points (Δy per unit of x); 0 for fewer than two distinct x. */
export function leastSquaresSlope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((s, p) => s + p.x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const { x, y } of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}
