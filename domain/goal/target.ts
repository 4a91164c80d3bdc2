import type { DistanceUnit } from '../shared/units.ts';
import { toStoredKm } from '../shared/units.ts';

/** What a goal counts: kilometres run, or runs. */
export type GoalType = 'distance' | 'count';

/** The most a weekly distance goal may ask, per unit (§5, §9); 500 mi is 804.67 km. */
export const MAX_WEEKLY_DISTANCE: Readonly<Record<DistanceUnit, number>> = { km: 804.67, mi: 500 };

/** The most runs a weekly count goal may ask (§5, §9). */
export const MAX_WEEKLY_RUNS = 50;

/** The exact refusals of §5 for a goal target. */
export const targetMessages = {
  notPositive: 'Please enter a valid target value greater than 0',
  distanceTooLarge: (unit: DistanceUnit) => `Distance goal cannot exceed ${MAX_WEEKLY_DISTANCE[unit]} ${unit} per week`,
  tooManyRuns: `Run count goal cannot exceed ${MAX_WEEKLY_RUNS} runs per week`,
  notWhole: 'Run count must be a whole number',
} as const;

/**
 * Why a target is refused, or null when it is fine. Checked in the unit the user typed it in, so the limit in
 * the message is the one they saw (804.67 km or 500 mi). Shared by the goal decider and the zod schema.
 */
export function targetError(type: GoalType, value: number, unit: DistanceUnit): string | null {
  if (!Number.isFinite(value) || value <= 0) return targetMessages.notPositive;
  if (type === 'distance') {
    if (value > MAX_WEEKLY_DISTANCE[unit]) return targetMessages.distanceTooLarge(unit);
    // Stored to 2 decimals: 0.001 km would be a 0 km goal, complete (and its stake released) before any run.
    return toStoredKm(value, unit) > 0 ? null : targetMessages.notPositive;
  }
  if (value > MAX_WEEKLY_RUNS) return targetMessages.tooManyRuns;
  return Number.isInteger(value) ? null : targetMessages.notWhole;
}

/** The target as stored: km to 2 decimals for distance (§5), the run count as is. */
export function storedTarget(type: GoalType, value: number, unit: DistanceUnit): number {
  return type === 'distance' ? toStoredKm(value, unit) : value;
}
