import { round2 } from '../shared/units.ts';
import { GPS_GLITCH_REASONS, type Verification, type VerificationV1 } from './verification.ts';

/** What a run is counted for: a goal with money on it, or a free goal and XP. */
export type CountingContext = 'staked_goal' | 'free_goal_or_xp';

/**
 * Version 1's rule, kept for the runs it judged (a stored verdict is never re-judged):
 * rejected: nothing; verified: its distance; suspicious: its trusted distance for a free goal or XP, and toward a
 * stake only when every reason is a GPS glitch.
 */
function countedV1(verification: VerificationV1, context: CountingContext): number {
  switch (verification.verdict) {
    case 'rejected':
      return 0;
    case 'verified':
      return verification.trustedDistanceKm;
    case 'suspicious':
      if (context === 'free_goal_or_xp') return verification.trustedDistanceKm;
      return verification.reasons.every((r) => GPS_GLITCH_REASONS.has(r)) ? verification.trustedDistanceKm : 0;
    default: {
      const unreachable: never = verification.verdict;
      return unreachable;
    }
  }
}

/**
 * The distance a run contributes on its own (km), by the policy version that judged it: toward a stake, the
 * distance its track proves (verification.ts); for a free goal or XP, the distance given the benefit of the doubt.
 * Runs counted together may still count less (count-once.ts).
 */
export function countedDistanceKm(verification: Verification, context: CountingContext): number {
  if (verification.policyVersion === 1) return countedV1(verification, context);
  return context === 'staked_goal' ? verification.stakeDistanceKm : verification.trustedDistanceKm;
}

/**
 * The stake distance a run proves before `cutoffMs` (a goal's week end): whole stretches before it, and the share of
 * the stretch it cuts through in proportion to time. A run counts toward the week it started in, but only for what
 * was run inside that week. Version 1 verdicts have no stretches: their whole distance counts, as it did.
 */
export function stakeDistanceBeforeKm(verification: Verification, cutoffMs: number): number {
  if (verification.policyVersion === 1) return countedV1(verification, 'staked_goal');
  let km = 0;
  for (const s of verification.stakeStretches) {
    if (s.endMs <= cutoffMs) km += s.km;
    else if (s.startMs < cutoffMs) km += (s.km * (cutoffMs - s.startMs)) / (s.endMs - s.startMs);
  }
  return Math.min(round2(km), verification.stakeDistanceKm);
}
