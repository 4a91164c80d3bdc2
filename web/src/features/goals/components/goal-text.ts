import type { DistanceUnit } from '../../../../../domain/shared/units.ts';
import { distanceValue, shortDate } from '../../../lib/format.ts';
import type { Goal } from '../../../lib/api-types.ts';

/** '7.50 / 20.00 km' or '2 / 3 runs', in the user's unit, with the 2 decimals every distance is shown with. */
export function progressText(goal: Pick<Goal, 'type' | 'target_value'>, progress: number, unit: DistanceUnit): string {
  if (goal.type === 'count') return `${progress} / ${goal.target_value} runs`;
  return `${distanceValue(progress, unit).toFixed(2)} / ${distanceValue(goal.target_value, unit).toFixed(2)} ${unit}`;
}

/** 'Run 20 km' or 'Run 3 times'. */
export function goalTitle(goal: Pick<Goal, 'type' | 'target_value'>, unit: DistanceUnit): string {
  return goal.type === 'count'
    ? `Run ${goal.target_value} ${goal.target_value === 1 ? 'time' : 'times'}`
    : `Run ${distanceValue(goal.target_value, unit)} ${unit}`;
}

/** 'Nov 16 – Nov 22'. */
export function weekLabel(start: string, end: string): string {
  return `${shortDate(start)} – ${shortDate(end)}`;
}
