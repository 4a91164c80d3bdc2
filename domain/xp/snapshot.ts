import type { WeekOutcome, Streak } from '../gamification/streaks.ts';
import type { LedgerRun, XpLedgerState } from './state.ts';

/**
 * An XP ledger's state as plain JSON, for the snapshot cache (app-server/snapshots/): a user's ledger grows with every
 * run they ever logged, and its process folds it whole on each award. A snapshot is a cache of the fold, never a
 * source of truth: reading = latest snapshot + the events after it, and deleting every snapshot changes nothing.
 * Bump the version whenever XpLedgerState or evolveXpLedger changes: snapshots of another version are ignored.
 */
export const XP_LEDGER_SNAPSHOT_VERSION = 1;

export interface XpLedgerSnapshot {
  readonly runs: readonly (readonly [string, LedgerRun])[];
  readonly settledGoals: readonly string[];
  readonly weekOutcomes: readonly WeekOutcome[];
  readonly streak: Streak;
  readonly awarded: readonly string[];
  readonly totalXp: number;
}

/** The state as JSON: Maps as entry lists and Sets as arrays, in their insertion order. */
export function xpLedgerToSnapshot(state: XpLedgerState): XpLedgerSnapshot {
  return {
    runs: [...state.runs.entries()],
    settledGoals: [...state.settledGoals],
    weekOutcomes: state.weekOutcomes,
    streak: state.streak,
    awarded: [...state.awarded],
    totalXp: state.totalXp,
  };
}

/** The state back from its JSON (the inverse of xpLedgerToSnapshot). */
export function xpLedgerFromSnapshot(snapshot: XpLedgerSnapshot): XpLedgerState {
  return {
    runs: new Map(snapshot.runs),
    settledGoals: new Set(snapshot.settledGoals),
    weekOutcomes: snapshot.weekOutcomes,
    streak: snapshot.streak,
    awarded: new Set(snapshot.awarded),
    totalXp: snapshot.totalXp,
  };
}
