import { countedDistanceKm } from '../../domain/run/counting.ts';
import type { Verification } from '../../domain/run/verification.ts';

/** What a run contributes to a staked goal and to a free goal, fixed from its stored verdict (km). */
export interface RunContribution {
  readonly km_staked: number;
  readonly km_free: number;
}

/** The run counting policy (domain/run/counting.ts) evaluated once, so read models can sum it in SQL. */
export function runContribution(verification: Verification): RunContribution {
  return {
    km_staked: countedDistanceKm(verification, 'staked_goal'),
    km_free: countedDistanceKm(verification, 'free_goal_or_xp'),
  };
}
