import type { Temporal } from 'temporal-polyfill';
import type { WeekResult } from '../gamification/streaks.ts';

/** Award a recorded run its XP, at the surge multiplier in force at its start. */
export interface AwardRunXp {
  readonly type: 'AwardRunXp';
  readonly userId: string;
  readonly runId: string;
  readonly distanceKm: number;
  /** ISO-8601 instant, stored as given. */
  readonly startedAt: string;
  /** The start on the user's wall clock ('YYYY-MM-DDTHH:mm:ss'), for the badge rules. */
  readonly localStart: string;
  readonly xpMultiplier: number;
  /**
   * The run's claimed end and track fingerprint (run policy version 2). A run that overlaps one already paid, or
   * repeats its recording, earns nothing (domain/run/count-once.ts: one person runs one run at a time). Absent for
   * runs judged by version 1.
   */
  readonly endedAt?: string;
  readonly trackKey?: string | null;
  readonly now: Temporal.Instant;
}

/** Take back a deleted run's XP. */
export interface RevokeRunXp {
  readonly type: 'RevokeRunXp';
  readonly userId: string;
  readonly runId: string;
  readonly now: Temporal.Instant;
}

/** Settle a goal's week: completed (reached 100%) or missed (week over, or canceled while active). */
export interface SettleGoalWeek {
  readonly type: 'SettleGoalWeek';
  readonly userId: string;
  readonly goalId: string;
  readonly weekStart: string;
  readonly result: WeekResult;
  /** Mondays of the user's paused weeks (issue 25): skipped by the streak. Absent: none. */
  readonly pausedWeeks?: readonly string[];
  readonly now: Temporal.Instant;
}

/** Award the XP of an earned badge. */
export interface AwardBadgeXp {
  readonly type: 'AwardBadgeXp';
  readonly userId: string;
  readonly badgeId: string;
  readonly badgeName: string;
  readonly now: Temporal.Instant;
}

/** Every command the XP ledger accepts; all are idempotent (a repeat decides no events). */
export type XpLedgerCommand = AwardRunXp | RevokeRunXp | SettleGoalWeek | AwardBadgeXp;
