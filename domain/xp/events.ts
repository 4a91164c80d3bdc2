import type { WeekResult } from '../gamification/streaks.ts';

/** A run earned XP; carries the run facts the badge rules need (distance counted for XP, local start). */
export interface RunXpAwarded {
  readonly type: 'RunXpAwarded';
  readonly data: {
    readonly userId: string;
    readonly runId: string;
    /** km counted for XP (the verification policy's trusted distance). */
    readonly distanceKm: number;
    readonly startedAt: string;
    /** Start on the user's wall clock when the run was recorded ('YYYY-MM-DDTHH:mm:ss'). */
    readonly localStart: string;
    /** 1 outside a surge. */
    readonly xpMultiplier: number;
    readonly baseXp: number;
    readonly surgeBonus: number;
    readonly xpAmount: number;
    readonly description: string;
    readonly awardedAt: string;
  };
}

/** A deleted run's XP was taken back (negative amount). */
export interface RunXpRevoked {
  readonly type: 'RunXpRevoked';
  readonly data: {
    readonly userId: string;
    readonly runId: string;
    readonly xpAmount: number;
    readonly description: string;
    readonly revokedAt: string;
  };
}

/** A goal's week was settled for the streak; the streak as it stands afterwards. */
export interface WeekSettled {
  readonly type: 'WeekSettled';
  readonly data: {
    readonly userId: string;
    readonly goalId: string;
    readonly weekStart: string;
    readonly result: WeekResult;
    readonly currentStreak: number;
    readonly longestStreak: number;
    readonly lastCompletedWeek: string | null;
    readonly settledAt: string;
  };
}

/** XP for a completed goal, a streak week or a badge. */
export interface XpAwarded {
  readonly type: 'XpAwarded';
  readonly data: {
    readonly userId: string;
    readonly sourceType: 'goal' | 'streak' | 'badge';
    readonly sourceId: string;
    readonly xpAmount: number;
    readonly description: string;
    readonly awardedAt: string;
  };
}

/** Every event of a user's XP ledger (stream `xp-<userId>`). */
export type XpLedgerEvent = RunXpAwarded | RunXpRevoked | WeekSettled | XpAwarded;

/** The event types of the ledger, for subscribers that filter the global log. */
export const XP_LEDGER_EVENT_TYPES: ReadonlySet<string> = new Set([
  'RunXpAwarded',
  'RunXpRevoked',
  'WeekSettled',
  'XpAwarded',
]);
