import type { Workout } from '@capgo/capacitor-health';
import { healthRouteProblem } from '../../domain/run/health-route.ts';
import { MAX_FIX_ACCURACY_M, MAX_RUN_SECONDS } from '../../domain/run/limits.ts';
import { MIN_RUN_POSITIONS, MIN_RUN_SECONDS } from '../../domain/run/policy.ts';
import { thinTrack } from '../../domain/run/thin-track.ts';
import type { HealthRouteFix } from '../../web/src/lib/platform/health.ts';

/** A route's fix as POST /runs takes it (gps_data.positions). */
export interface RoutePosition {
  readonly latitude: number;
  readonly longitude: number;
  readonly timestamp: number;
  readonly accuracy?: number;
}

/**
 * The most fixes a route is sent with: a fix every 2 s for a 5.5-hour run, about 1 MB of JSON, under the API's 2 MB
 * body limit. A longer or denser route is thinned evenly (first and last kept), which keeps its gaps far below the
 * 60 s the run policy counts as a gap for any run under a week.
 */
export const MAX_ROUTE_FIXES = 10_000;

/**
 * A workout's route as the run's positions, and the duration the run then claims (its elapsed time: start to end,
 * pauses included, never less than the store's duration), or null when it cannot go: too short to be a run, or not
 * this workout's (a fix out of order or outside its time, which the API would refuse whole: health-route.ts). Then
 * the workout goes without a route, as before routes were read.
 */
export function routePositions(
  workout: Pick<Workout, 'startDate' | 'endDate' | 'duration'>,
  route: readonly HealthRouteFix[],
): { positions: RoutePosition[]; durationSec: number } | null {
  const startMs = Date.parse(new Date(workout.startDate).toISOString());
  const endMs = Date.parse(workout.endDate);
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs)) return null;
  const durationSec = Math.max(Math.round(workout.duration), Math.ceil((endMs - startMs) / 1000));
  if (durationSec < MIN_RUN_SECONDS || durationSec > MAX_RUN_SECONDS) return null;
  const positions = thinTrack(
    route.map((fix) => ({
      latitude: fix.lat,
      longitude: fix.lng,
      timestamp: Date.parse(fix.at),
      ...(fix.accuracy !== undefined && fix.accuracy >= 0 && fix.accuracy <= MAX_FIX_ACCURACY_M
        ? { accuracy: fix.accuracy }
        : {}),
    })),
    MAX_ROUTE_FIXES,
  );
  if (positions.length < MIN_RUN_POSITIONS) return null;
  if (healthRouteProblem(startMs, durationSec, positions) !== null) return null;
  return { positions, durationSec };
}
