import type { BadgeFacts } from '../gamification/badge-criteria.ts';
import { NO_STREAK, type Streak, type WeekOutcome } from '../gamification/streaks.ts';

/** A run the ledger paid XP for. */
export interface LedgerRun {
  readonly distanceKm: number;
  readonly localStart: string;
  readonly xpAmount: number;
  readonly revoked: boolean;
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

/** The facts the badge rules look at: runs not deleted, and every settled week. */
export function badgeFactsOf(state: XpLedgerState): BadgeFacts {
  const runs = [...state.runs.entries()]
    .filter(([, run]) => !run.revoked)
    .map(([runId, run]) => ({ runId, distanceKm: run.distanceKm, localStart: run.localStart }));
  return { runs, weekOutcomes: state.weekOutcomes };
}
