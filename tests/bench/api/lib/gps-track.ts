import type { GpsPosition } from '../../../../domain/run/geo.ts';
import { DEG_PER_KM } from '../../../../domain/run/track.test-helpers.ts';

/** What a generated run looks like. */
export interface TrackSpec {
  /** Where the runner starts. */
  readonly start: { readonly latitude: number; readonly longitude: number };
  /** Epoch ms of the first fix. */
  readonly startMs: number;
  /** The distance to cover (the track stops at the first fix at or beyond it). */
  readonly distanceKm: number;
  /** Average pace, seconds per km (5:30/km = 330). */
  readonly paceSecPerKm: number;
  /** Seconds between fixes, drawn uniformly from [min, max] (a phone: 1–5 s). */
  readonly fixEverySec: readonly [number, number];
  /** A uniform random number in [0, 1): seeded in the bench so a run is reproducible. */
  readonly random: () => number;
}

/**
 * A plausible GPS track of a run, as a phone records it: fixes every few seconds, accuracy 3–12 m, the pace
 * wandering ±8% around the average, and a course that bends like streets and parks do (the heading drifts, and
 * turns back towards home halfway, so the run ends near where it began). No jitter is added to positions: a phone's
 * filtered fixes do not zig-zag, and jitter would lengthen the haversine sum beyond the distance run.
 */
export function generateTrack(spec: TrackSpec): GpsPosition[] {
  const { random } = spec;
  const positions: GpsPosition[] = [];
  let { latitude, longitude } = spec.start;
  let t = spec.startMs;
  let km = 0;
  let heading = random() * 2 * Math.PI;
  const cosLat = Math.cos((spec.start.latitude * Math.PI) / 180);
  const fix = () => ({ latitude, longitude, timestamp: Math.round(t), accuracy: Math.round(3 + random() * 9) });
  positions.push(fix());
  while (km < spec.distanceKm) {
    const [minSec, maxSec] = spec.fixEverySec;
    const sec = minSec + random() * (maxSec - minSec);
    const pace = spec.paceSecPerKm * (0.92 + random() * 0.16);
    const stepKm = Math.min(sec / pace, spec.distanceKm - km + 1e-6);
    // Drift the heading a little each fix; halfway, swing round to head back.
    heading += (random() - 0.5) * 0.03 + (km < spec.distanceKm / 2 && km + stepKm >= spec.distanceKm / 2 ? Math.PI : 0);
    latitude += stepKm * DEG_PER_KM * Math.cos(heading);
    longitude += (stepKm * DEG_PER_KM * Math.sin(heading)) / cosLat;
    // A last step cut short by the distance still takes a whole fix interval: a sliver of a metre would otherwise
    // land on the previous fix's millisecond (a jump in no time).
    t += Math.max(stepKm * pace * 1000, minSec * 1000);
    km += stepKm;
    positions.push(fix());
  }
  return positions;
}

/** A POST /runs body (§7) for a generated track: start time, the tracker's duration, the client's distance. */
export function runBody(positions: readonly GpsPosition[], distanceKm: number) {
  const first = positions[0]!;
  const last = positions[positions.length - 1]!;
  return {
    started_at: new Date(first.timestamp).toISOString(),
    distance_km: Math.round(distanceKm * 100) / 100,
    duration_sec: Math.round((last.timestamp - first.timestamp) / 1000),
    source: 'gps' as const,
    gps_data: { positions },
    notes: null,
  };
}
