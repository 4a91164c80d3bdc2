import type { BadgeEvent } from '../../domain/badge/events.ts';
import { badgeDefinition } from '../../domain/gamification/badge-definitions.ts';
import type { RunRecorded } from '../../domain/run/events.ts';
import type { StakeOpened } from '../../domain/stake/events.ts';
import type { FeedEventData } from './feed-tables.ts';

/** Deterministic feed ids, derived from the source so a rebuild gives the same ids (and reaction streams match). */
export const feedIds = {
  run: (runId: string) => `run-${runId}`,
  stakeCreated: (stakeId: string) => `stake-${stakeId}-created`,
  stakeSettled: (stakeId: string) => `stake-${stakeId}-settled`,
  badge: (badgeId: string) => `badge-${badgeId}`,
};

/** A run_completed card. Pace in s/km. XP arrives with a later event (the XP ledger), so it starts at 0. */
export function runCompletedData(d: RunRecorded['data']): FeedEventData {
  return {
    distance_km: d.distanceKm,
    duration_sec: d.durationSec,
    pace: d.distanceKm > 0 ? Math.round(d.durationSec / d.distanceKm) : null,
    xp_earned: 0,
    surge_bonus: 0,
    // Kept so queries can apply the Strava terms per viewer; never sent to anyone but the owner.
    source: d.source,
  };
}

/** A stake_created card: what kind of goal, and whether a charity benefits. Amounts stay private. */
export function stakeCreatedData(d: StakeOpened['data'], goalType: string | null): FeedEventData {
  return { goal_type: goalType, has_charity: d.charityId !== null, charity_id: d.charityId };
}

/** A badge_earned card; the name comes from the shared definitions. */
export function badgeEarnedData(d: Extract<BadgeEvent, { type: 'BadgeEarned' }>['data']): FeedEventData {
  return { badge_type: d.badgeType, badge_name: badgeDefinition(d.badgeType).name };
}
