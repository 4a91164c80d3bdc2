import type { CountedOnce } from './count-once.ts';
import { countedDistanceKm } from './counting.ts';
import { type CountedToward, stakeCountSentence } from './verdict-words.ts';
import type { Verification } from './verification.ts';

/**
 * A run's verification as the API sends it (§3 Run `verification`): the verdict and its reasons, the claimed
 * distance, what counts toward a stake (after the cross-run rules, `counted` from count-once.ts) and for XP and free
 * goals, what was left out and why, and the same in one sentence for people. Here, not beside the route, because
 * the demo mode answers runs in the same shape from the same rules. `toward` is what the run's week has
 * (counted-toward.ts): the sentence speaks of a stake only when there is one, and of a free goal's count (the XP
 * distance, as the web app's verdict does) when the week's goal is free.
 */
export function verificationJson(
  v: Verification,
  runDistanceKm: number,
  counted: CountedOnce | undefined,
  toward: CountedToward = 'stake',
) {
  const claimedKm = v.policyVersion === 2 ? v.claimedDistanceKm : runDistanceKm;
  const stakeKm = counted?.km ?? countedDistanceKm(v, 'staked_goal');
  const excluded = v.policyVersion === 2 ? v.excluded : [];
  const outrankedBy = counted?.outrankedBy ?? null;
  return {
    verdict: v.verdict,
    reasons: v.reasons,
    policy_version: v.policyVersion,
    claimed_distance_km: claimedKm,
    stake_distance_km: stakeKm,
    xp_distance_km: countedDistanceKm(v, 'free_goal_or_xp'),
    /** Kept for older clients: the XP distance. */
    trusted_distance_km: v.trustedDistanceKm,
    excluded: excluded.map((p) => ({
      reason: p.reason,
      km: p.km,
      sec: p.sec,
      fixes: p.fixes,
      stretches: p.stretches,
    })),
    counted_instead: outrankedBy ? { run_id: outrankedBy.runId, rule: outrankedBy.rule } : null,
    summary: stakeCountSentence(
      {
        claimedKm,
        stakeKm: toward === 'stake' ? stakeKm : countedDistanceKm(v, 'free_goal_or_xp'),
        reasons: v.reasons,
        excluded,
        outrankedBy,
      },
      'km',
      toward,
    ),
  };
}
