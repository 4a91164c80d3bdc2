/** XP earning rules of §9. */
export const XP_PER_KM = 10;
export const XP_PER_GOAL = 250;
export const XP_PER_STREAK_WEEK = 100;
export const XP_PER_BADGE = 150;

/** What earned (or took back) XP. */
export type XpSourceType = 'run' | 'goal' | 'streak' | 'badge';

/** One row of a user's XP history (§3 xp_history). */
export interface XpEntry {
  readonly source_type: XpSourceType;
  readonly source_id: string;
  /** Whole XP; negative only for the correction written when a run is deleted. */
  readonly xp_amount: number;
  readonly description: string;
}

/** The XP of a run, split for the feed's xp_earned and surge_bonus fields. */
export interface RunXp {
  readonly base: number;
  readonly surgeBonus: number;
  readonly total: number;
}

// Runs are stored to 2 decimals (§5): work in hundredths of a km so 5.05 km is 50.5 XP exactly, not 50.4999…
const hundredths = (km: number) => Math.max(0, Math.round(km * 100));
// Integer XP, rounded half up. The epsilon absorbs binary noise of decimal multipliers (505 × 1.1 = 555.4999…).
const roundXp = (xp: number) => Math.round(xp + 1e-9);

/** XP for a run of `distanceKm` logged while `multiplier` was in force (1 outside a surge). */
export function runXp(distanceKm: number, multiplier = 1): RunXp {
  const h = hundredths(distanceKm);
  const base = roundXp((h * XP_PER_KM) / 100);
  const total = Math.max(base, roundXp((h * XP_PER_KM * multiplier) / 100));
  return { base, surgeBonus: total - base, total };
}

/** Formats a multiplier for descriptions: 2 → '2x', 1.5 → '1.5x'. */
export function formatMultiplier(multiplier: number): string {
  return `${Number(multiplier.toFixed(2))}x`;
}

/** The history entry for a logged run; its description names the surge when one applied ('Run: 5.00 km (Surge 2x)'). */
export function runXpEntry(runId: string, distanceKm: number, multiplier = 1): XpEntry {
  const xp = runXp(distanceKm, multiplier);
  const surge = multiplier > 1 ? ` (Surge ${formatMultiplier(multiplier)})` : '';
  return {
    source_type: 'run',
    source_id: runId,
    xp_amount: xp.total,
    description: `Run: ${(hundredths(distanceKm) / 100).toFixed(2)} km${surge}`,
  };
}

/**
 * The correction entry when a run is deleted: minus whatever that run earned, so the total returns to what it was
 * without the run (surge bonus included). Null when the run earned nothing or was already corrected. XP for goals,
 * streaks and badges the run helped earn is kept: those are settled facts about a past week, and clawing them
 * back would make levels go down for a housekeeping action.
 */
export function runDeletedXpEntry(runId: string, distanceKm: number, history: readonly XpEntry[]): XpEntry | null {
  const earned = history
    .filter((e) => e.source_type === 'run' && e.source_id === runId)
    .reduce((sum, e) => sum + e.xp_amount, 0);
  if (earned <= 0) return null;
  return {
    source_type: 'run',
    source_id: runId,
    xp_amount: -earned,
    description: `Run deleted: ${(hundredths(distanceKm) / 100).toFixed(2)} km`,
  };
}

/** The history entry for a completed weekly goal. */
export function goalXpEntry(goalId: string): XpEntry {
  return { source_type: 'goal', source_id: goalId, xp_amount: XP_PER_GOAL, description: 'Weekly goal completed' };
}

/**
 * The history entry for a week of streak: every completed week that is part of the current streak (the first
 * included) earns a flat 100, so the bonus rewards consistency without growing without bound.
 */
export function streakXpEntry(weekStart: string, streakWeeks: number): XpEntry {
  const weeks = streakWeeks === 1 ? '1 week' : `${streakWeeks} weeks`;
  return {
    source_type: 'streak',
    source_id: weekStart,
    xp_amount: XP_PER_STREAK_WEEK,
    description: `Streak: ${weeks}`,
  };
}

/** The history entry for an earned badge. */
export function badgeXpEntry(badgeId: string, badgeName: string): XpEntry {
  return {
    source_type: 'badge',
    source_id: badgeId,
    xp_amount: XP_PER_BADGE,
    description: `Badge earned: ${badgeName}`,
  };
}

/** A user's total XP: the sum of the history, never below 0. */
export function totalXp(history: readonly XpEntry[]): number {
  return Math.max(
    0,
    history.reduce((sum, e) => sum + e.xp_amount, 0),
  );
}
