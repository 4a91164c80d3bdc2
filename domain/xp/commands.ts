import type { WeekResult } from '../gamification/streaks.ts';

/** Award a recorded run its XP, at the surge multiplier in force at its start. */
export interface AwardRunXp {
  readonly type: 'AwardRunXp';
  readonly userId: string;
  readonly runId: string;
  readonly distanceKm: number;
  readonly startedAt: string;
  readonly localStart: string;
  readonly xpMultiplier: number;
  readonly now: string;
}

/** Take back a deleted run's XP. */
export interface RevokeRunXp {
  readonly type: 'RevokeRunXp';
  readonly userId: string;
  readonly runId: string;
  readonly now: string;
}

/** Settle a goal's week: completed (reached 100%) or missed (week over, or canceled while active). */
export interface SettleGoalWeek {
  readonly type: 'SettleGoalWeek';
  readonly userId: string;
  readonly goalId: string;
  readonly weekStart: string;
  readonly result: WeekResult;
  readonly now: string;
}

/** Award the XP of an earned badge. */
export interface AwardBadgeXp {
  readonly type: 'AwardBadgeXp';
  readonly userId: string;
  readonly badgeId: string;
  readonly badgeName: string;
  readonly now: string;
}

/** Every command the XP ledger accepts; all are idempotent (a repeat decides no events). */
export type XpLedgerCommand = AwardRunXp | RevokeRunXp | SettleGoalWeek | AwardBadgeXp;
