import { GPS_GLITCH_REASONS, type Verification } from './verification.ts';

/** What a run is counted for: a goal with money on it, or a free goal and XP. */
export type CountingContext = 'staked_goal' | 'free_goal_or_xp';

/**
 * The distance a run contributes (km). Policy:
 * - rejected: nothing, anywhere.
 * - verified: its distance, everywhere.
 * - suspicious, free goal or XP: its trusted distance (teleport segments cut out). The benefit of the doubt costs
 *   nobody money.
 * - suspicious, staked goal: its trusted distance when every reason is a GPS glitch (a phone losing signal must
 *   not cost a runner their stake: the glitched stretch is dropped, the rest counts); nothing when there is a doubt
 *   about the activity itself (walking pace, manual entry, treadmill, no track), because money moves on it.
 */
export function countedDistanceKm(verification: Verification, context: CountingContext): number {
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

/** Whether a run counts as one run toward a count goal (or earns XP): it contributes some distance. */
export function countsAsRun(verification: Verification, context: CountingContext): boolean {
  return countedDistanceKm(verification, context) > 0;
}
