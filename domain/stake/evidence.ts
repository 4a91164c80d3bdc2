import { Temporal } from 'temporal-polyfill';
import type { GoalDetails } from '../goal/events.ts';
import type { GoalRun } from '../goal/progress.ts';
import { countOnce } from '../run/count-once.ts';
import { stakeDistanceBeforeKm } from '../run/counting.ts';
import type { Verification, VerificationReason } from '../run/verification.ts';
import { round2 } from '../shared/units.ts';
import { isWithinWeek, weekStartingOn } from '../shared/week.ts';

/**
 * Doubts about the activity (docs/run-policy.md rule 5): a run with one of them was perhaps not a run on foot, so an
 * appeal cannot lean on it by rule alone; an operator may still look at it.
 */
const ACTIVITY_DOUBTS: ReadonlySet<VerificationReason> = new Set([
  'walking_pace',
  'manual_entry',
  'indoor_trainer',
  'no_gps_track',
  'cycling_speed',
]);

/**
 * What a run shows as evidence for an appeal or a late refund (km): a track the run policy found plausible as
 * running counts whole, with the benefit of the device's doubts (uploaded late, gaps, no signal, inaccurate fixes:
 * the "spirit" rule, which says such doubts never cost a runner their stake); a run without a track, or with a doubt
 * about the activity, shows only what already counted toward the stake; a rejected run shows nothing.
 */
export function evidenceKm(verification: Verification): number {
  if (verification.policyVersion === 1) return verification.verdict === 'rejected' ? 0 : verification.trustedDistanceKm;
  if (verification.verdict === 'rejected') return 0;
  if (verification.trackKey === null || verification.reasons.some((r) => ACTIVITY_DOUBTS.has(r))) {
    return verification.stakeDistanceKm;
  }
  return verification.trustedDistanceKm;
}

/**
 * A staked goal's week counted on its evidence: the runs that started in the week (in the goal's zone), each with
 * its evidence distance, only the share of its claimed time inside the week, once per stretch of time and per
 * recording (count-once.ts, as progress is). km (2 decimals) or a number of runs, like the goal's progress.
 */
export function evidenceProgress(
  goal: Pick<GoalDetails, 'userId' | 'type' | 'weekStart' | 'timeZone'>,
  runs: readonly GoalRun[],
): number {
  const week = weekStartingOn(goal.weekStart, goal.timeZone);
  const weekEndMs = week.end.epochMilliseconds;
  const own = runs.filter((run) => run.userId === goal.userId);
  // The cross-run rules weigh runs by the distance they count in the context given: here, their evidence.
  const asEvidence = own.map((run) =>
    run.verification.policyVersion === 2
      ? { ...run, verification: { ...run.verification, stakeDistanceKm: evidenceKm(run.verification) } }
      : run,
  );
  const counted = countOnce(asEvidence, 'staked_goal');
  const kmOf = (run: GoalRun) => {
    const km = counted.get(run.runId)?.km ?? 0;
    if (km <= 0 || run.endedAtMs <= weekEndMs || run.endedAtMs <= run.startedAtMs) return km;
    // A run across the week's end: its share of the time inside, and never less than its proven stretches inside.
    const share = (km * (weekEndMs - run.startedAtMs)) / (run.endedAtMs - run.startedAtMs);
    return Math.min(km, Math.max(share, stakeDistanceBeforeKm(run.verification, weekEndMs)));
  };
  const inWeek = own.filter((run) => isWithinWeek(Temporal.Instant.fromEpochMilliseconds(run.startedAtMs), week));
  if (goal.type === 'count') return inWeek.filter((run) => kmOf(run) > 0).length;
  return round2(inWeek.reduce((sum, run) => sum + kmOf(run), 0));
}

/** Whether the evidence of the week reaches the goal's target. */
export function evidenceCompletesGoal(
  goal: Pick<GoalDetails, 'userId' | 'type' | 'weekStart' | 'timeZone' | 'targetValue'>,
  runs: readonly GoalRun[],
): boolean {
  return evidenceProgress(goal, runs) >= goal.targetValue;
}
