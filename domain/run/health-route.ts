import { verificationLimits } from './verification-policy.ts';

/*
 * A health store workout's route (Health Connect's ExerciseRoute, HealthKit's workout route), sent with the workout
 * to POST /runs. It is the phone's record of the workout, so it must look like one before anything is saved: its
 * fixes in time order and inside the workout's own time. A route that does not is not a glitchy track (the policy
 * would drop the glitch and count the rest) but a different recording put under this workout, so it is refused
 * whole, with a sentence. Its size is the cap of any run (MAX_RUN_POSITIONS, the body schema's).
 */

/** A route's fix as POST /runs carries it (the fields this rule reads). */
export interface RouteFix {
  readonly timestamp: number;
}

/** The refusals of a health store route; the runner reads them in the import's summary. */
export const healthRouteErrors = {
  outOfOrder: 'A health store route must list its points in time order',
  outsideWorkout: (minutes: number) =>
    `A health store route must lie inside its workout's time (give or take ${minutes} minutes)`,
} as const;

/** How far a fix may lie outside the workout's time: the run policy's tolerance for device clocks (rule 3). */
const TOLERANCE_MS = verificationLimits.fixTimeToleranceSec * 1000;

/** Why this route cannot be the workout's (a sentence), or null when it can. */
export function healthRouteProblem(
  startedAtMs: number,
  durationSec: number,
  route: readonly RouteFix[],
): string | null {
  const earliest = startedAtMs - TOLERANCE_MS;
  const latest = startedAtMs + durationSec * 1000 + TOLERANCE_MS;
  for (let i = 0; i < route.length; i += 1) {
    const at = route[i]!.timestamp;
    if (i > 0 && at < route[i - 1]!.timestamp) return healthRouteErrors.outOfOrder;
    if (at < earliest || at > latest) return healthRouteErrors.outsideWorkout(TOLERANCE_MS / 60_000);
  }
  return null;
}
