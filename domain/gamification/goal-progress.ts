import { motivationalMessage } from './motivation.ts';

/** A weekly goal's kind: a distance in km, or a number of runs (§3; some screens call the second 'runs'). */
export type GoalKind = 'distance' | 'count';

/** A goal's progress as every screen shows it. */
export interface GoalProgress {
  /** km run (2 decimals) or runs logged this week. */
  readonly current: number;
  /**
   * Whole percent of the target reached, rounded down, never negative and not capped: the stats screen may show
   * 140%. Rounded down so that 99.6% never reads as 100% while the goal is not yet met.
   */
  readonly percentage: number;
  /** The percentage capped at 100, for progress bars and rings. */
  readonly displayPercentage: number;
  /** True once the target is reached (percentage ≥ 100, §4). */
  readonly completed: boolean;
  readonly message: string;
}

/** Distances are summed in hundredths of a km (runs are stored to 2 decimals, §5) so sums are exact. */
const hundredths = (km: number) => Math.max(0, Math.round(km * 100));

/** Progress of a goal from the distances (km) of the week's runs. */
export function goalProgress(kind: GoalKind, target: number, runDistancesKm: readonly number[]): GoalProgress {
  const done =
    kind === 'distance' ? runDistancesKm.reduce((sum, km) => sum + hundredths(km), 0) : runDistancesKm.length;
  const goal = kind === 'distance' ? hundredths(target) : Math.max(0, Math.round(target));
  const current = kind === 'distance' ? done / 100 : done;
  // A zero target cannot be created (§5); treat it as already met rather than divide by zero.
  const completed = done >= goal;
  const percentage = goal === 0 ? 100 : Math.floor((done * 100) / goal);
  return {
    current,
    percentage,
    displayPercentage: Math.min(100, percentage),
    completed,
    message: motivationalMessage(percentage),
  };
}
