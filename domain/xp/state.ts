import type { BadgeFacts } from '../gamification/badge-criteria.ts';
import { NO_STREAK, type Streak, type WeekOutcome } from '../gamification/streaks.ts';
import type { XpLedgerEvent } from './events.ts';

/** A run the ledger paid XP for. */
export interface LedgerRun {
  readonly distanceKm: number;
  readonly localStart: string;
  readonly xpAmount: number;
  readonly revoked: boolean;
  /** Claimed time and track fingerprint, for runs judged by run policy version 2. */
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly trackKey?: string | null;
}

/** A user's XP ledger: what was paid for, the streak, and the facts badges are judged on. */
export interface XpLedgerState {
  readonly runs: ReadonlyMap<string, LedgerRun>;
  readonly settledGoals: ReadonlySet<string>;
  readonly weekOutcomes: readonly WeekOutcome[];
  readonly streak: Streak;
  /** `<sourceType>:<sourceId>` of every goal, streak and badge award. */
  readonly awarded: ReadonlySet<string>;
  readonly totalXp: number;
}

/** The ledger of a user who earned nothing yet. */
export const initialXpLedgerState: XpLedgerState = {
  runs: new Map(),
  settledGoals: new Set(),
  weekOutcomes: [],
  streak: NO_STREAK,
  awarded: new Set(),
  totalXp: 0,
};

/** The key of a goal, streak or badge award in `awarded`. */
export const awardKey = (sourceType: string, sourceId: string) => `${sourceType}:${sourceId}`;

/** Applies one ledger event. */
export function evolveXpLedger(state: XpLedgerState, event: XpLedgerEvent): XpLedgerState {
  switch (event.type) {
    case 'RunXpAwarded': {
      const { runId, distanceKm, localStart, xpAmount, startedAt, endedAt, trackKey } = event.data;
      const timing = endedAt === undefined ? {} : { startedAt, endedAt, trackKey };
      const runs = new Map(state.runs).set(runId, { distanceKm, localStart, xpAmount, revoked: false, ...timing });
      return { ...state, runs, totalXp: state.totalXp + xpAmount };
    }
    case 'RunXpRevoked': {
      const run = state.runs.get(event.data.runId);
      const runs = run ? new Map(state.runs).set(event.data.runId, { ...run, revoked: true }) : state.runs;
      return { ...state, runs, totalXp: state.totalXp + event.data.xpAmount };
    }
    case 'WeekSettled': {
      const { goalId, weekStart, result, currentStreak, longestStreak, lastCompletedWeek } = event.data;
      return {
        ...state,
        settledGoals: new Set(state.settledGoals).add(goalId),
        weekOutcomes: [...state.weekOutcomes, { weekStart, result }],
        streak: { current: currentStreak, longest: longestStreak, lastCompletedWeek },
      };
    }
    case 'XpAwarded': {
      const awarded = new Set(state.awarded).add(awardKey(event.data.sourceType, event.data.sourceId));
      return { ...state, awarded, totalXp: state.totalXp + event.data.xpAmount };
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The facts the badge rules look at: runs not deleted, and every settled week. */
export function badgeFactsOf(state: XpLedgerState): BadgeFacts {
  const runs = [...state.runs.entries()]
    .filter(([, run]) => !run.revoked)
    .map(([runId, run]) => ({ runId, distanceKm: run.distanceKm, localStart: run.localStart }));
  return { runs, weekOutcomes: state.weekOutcomes };
}
