import type { DistanceUnit } from '../shared/units.ts';
import type { GoalType } from './target.ts';

/** A goal as set in the wizard; fixed at creation, including its time zone (FACTS: lock the zone). */
export interface GoalDetails {
  readonly goalId: string;
  readonly userId: string;
  readonly type: GoalType;
  /** km (2 decimals) for a distance goal, runs for a count goal. */
  readonly targetValue: number;
  /** What the user typed and in which unit, kept for display and audit. */
  readonly enteredValue: number;
  readonly enteredUnit: DistanceUnit;
  readonly stakeAmountCents: number;
  readonly charityId: string | null;
  readonly paymentMethodId: string | null;
  readonly timeZone: string;
  /** Monday of the goal's week (YYYY-MM-DD, in `timeZone`): period_start. */
  readonly weekStart: string;
  /** Sunday of the goal's week: period_end. */
  readonly weekEnd: string;
}

/** A goal was set for this week or the next. */
export interface GoalCreated {
  readonly type: 'GoalCreated';
  readonly data: GoalDetails & { readonly createdAt: string };
}

/** The goal's week began (or it was created for the current week): it is active, and a stake's hold goes on now. */
export interface GoalActivated {
  readonly type: 'GoalActivated';
  readonly data: { readonly goalId: string; readonly weekStart: string; readonly activatedAt: string };
}

/** The runs counted for the goal's week now total `progress` (km or runs). */
export interface GoalProgressRecorded {
  readonly type: 'GoalProgressRecorded';
  readonly data: {
    readonly goalId: string;
    readonly progress: number;
    readonly percentage: number;
    readonly recordedAt: string;
  };
}

/** The goal reached 100%; happens once, and a stake's hold is released on it. */
export interface GoalCompleted {
  readonly type: 'GoalCompleted';
  readonly data: { readonly goalId: string; readonly progress: number; readonly completedAt: string };
}

/** The week ended (and settlement came) without reaching 100%. */
export interface GoalMissed {
  readonly type: 'GoalMissed';
  readonly data: {
    readonly goalId: string;
    readonly progress: number;
    readonly percentage: number;
    readonly closedAt: string;
  };
}

/** The user canceled the goal; `stakeForfeited` tells the stake process to capture. */
export interface GoalCanceled {
  readonly type: 'GoalCanceled';
  readonly data: {
    readonly goalId: string;
    readonly previousStatus: 'upcoming' | 'active';
    readonly stakeForfeited: boolean;
    readonly canceledAt: string;
  };
}

/** An upcoming goal was deleted before its week began. */
export interface GoalDeleted {
  readonly type: 'GoalDeleted';
  readonly data: { readonly goalId: string; readonly deletedAt: string };
}

/** Every event of the goal stream `goal-<id>`. */
export type GoalEvent =
  | GoalCreated
  | GoalActivated
  | GoalProgressRecorded
  | GoalCompleted
  | GoalMissed
  | GoalCanceled
  | GoalDeleted;
