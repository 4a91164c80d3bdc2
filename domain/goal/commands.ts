import type { Temporal } from 'temporal-polyfill';
import type { DistanceUnit } from '../shared/units.ts';
import type { GoalType } from './target.ts';

/** Set a goal from the wizard (§2); `start` picks this week (active now) or next week (upcoming). */
export interface CreateGoal {
  readonly type: 'CreateGoal';
  readonly goalId: string;
  readonly userId: string;
  readonly goalType: GoalType;
  readonly targetValue: number;
  /** The unit `targetValue` was entered in (ignored for a count goal). */
  readonly unit: DistanceUnit;
  readonly stakeAmountCents: number;
  readonly charityId: string | null;
  readonly paymentMethodId: string | null;
  /** The user's zone at creation; the goal keeps it even if the profile changes later. */
  readonly timeZone: string;
  readonly start: 'this_week' | 'next_week';
  readonly now: Temporal.Instant;
}

/** Issued by the clock process at the goal's week start. */
export interface ActivateGoal {
  readonly type: 'ActivateGoal';
  readonly now: Temporal.Instant;
}

/**
 * The current total (km or runs) of the runs that count for this goal's week (progress.ts): completes the goal when
 * it reaches the target, withdraws a completion when it falls below it before the week is closed.
 */
export interface RecordProgress {
  readonly type: 'RecordProgress';
  readonly progress: number;
  readonly now: Temporal.Instant;
}

/** Issued by the settlement process once the goal may be settled, with the week's final progress (progress.ts). */
export interface CloseWeek {
  readonly type: 'CloseWeek';
  readonly progress: number;
  readonly now: Temporal.Instant;
}

/** The owner cancels an upcoming or active goal. */
export interface CancelGoal {
  readonly type: 'CancelGoal';
  readonly userId: string;
  readonly now: Temporal.Instant;
}

/** The owner deletes an upcoming goal. */
export interface DeleteUpcomingGoal {
  readonly type: 'DeleteUpcomingGoal';
  readonly userId: string;
  readonly now: Temporal.Instant;
}

/** Every command of the goal aggregate. */
export type GoalCommand = CreateGoal | ActivateGoal | RecordProgress | CloseWeek | CancelGoal | DeleteUpcomingGoal;
