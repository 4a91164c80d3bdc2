import { secondsAt, type Timeline } from '../../../../../domain/run/run-figures.ts';

/** The pace at a distance into the run. */
export interface PacePoint {
  readonly km: number;
  readonly paceSecPerKm: number;
}

/**
 * The run's pace along its distance for a chart: the pace over the `windowKm` behind each of up to `samples + 1`
 * evenly spaced distances, from the first point with a whole window behind it to the run's end (run-figures.ts: the
 * run's timeline). A pace over the first few metres measures GPS noise and the start, not the runner (issue 26: a run
 * at constant speed charted from 1:22 /km), so the chart starts once a whole window was run; a run shorter than two
 * windows charts over half its length. Windows where the runner stood still give no point; paces are finite and
 * positive, and a run at constant speed charts flat.
 */
export function paceSeries(timeline: Timeline, samples = 60, windowKm = 0.2): PacePoint[] {
  const { km } = timeline;
  if (km.length < 2 || samples < 1) return [];
  const total = km[km.length - 1]!;
  if (!(total > 0)) return [];
  const window = Math.min(windowKm, total / 2);
  const points: PacePoint[] = [];
  for (let s = 0; s <= samples; s++) {
    const at = window + ((total - window) * s) / samples;
    const sec = secondsAt(timeline, at) - secondsAt(timeline, at - window);
    if (sec > 0) points.push({ km: at, paceSecPerKm: sec / window });
  }
  return points;
}
