import { z } from 'zod';
import { entityId, isoDate, isoInstant } from '../shared/event-schema.ts';

const goalId = entityId;
const progress = z.number().nonnegative();
const percentage = z.number().int().nonnegative();

/** A goal as set in the wizard; fixed at creation, including its time zone (FACTS: lock the zone). */
export const GoalDetails = z.object({
  goalId,
  userId: entityId,
  /** What the goal counts: kilometres run, or runs (target.ts GoalType). */
  type: z.enum(['distance', 'count']),
  /** km (2 decimals) for a distance goal, runs for a count goal. */
  targetValue: z.number().positive(),
  /** What the user typed and in which unit, kept for display and audit. */
  enteredValue: z.number().positive(),
  enteredUnit: z.enum(['km', 'mi']),
  stakeAmountCents: z.number().int().nonnegative(),
  charityId: z.string().nullable(),
  paymentMethodId: z.string().nullable(),
  timeZone: z.string().min(1),
  /** Monday of the goal's week (YYYY-MM-DD, in `timeZone`): period_start. */
  weekStart: isoDate,
  /** Sunday of the goal's week: period_end. */
  weekEnd: isoDate,
});
/** A goal as set in the wizard. */
export type GoalDetails = z.infer<typeof GoalDetails>;

/** A goal was set for this week or the next. */
export const GoalCreated = z.object({
  type: z.literal('GoalCreated'),
  data: GoalDetails.extend({ createdAt: isoInstant }),
});
/** A goal was set. */
export type GoalCreated = z.infer<typeof GoalCreated>;

/** The goal's week began (or it was created for the current week): it is active, and a stake's hold goes on now. */
export const GoalActivated = z.object({
  type: z.literal('GoalActivated'),
  data: z.object({ goalId, weekStart: isoDate, activatedAt: isoInstant }),
});
/** The goal's week began. */
export type GoalActivated = z.infer<typeof GoalActivated>;

/**
 * The runs counted for the goal's week totalled `progress` (km or runs). No longer decided: nobody read it (the read
 * model counts the runs itself, and the week's closing figure comes with CloseWeek). Streams written before keep
 * it, so it stays readable; the goal's evolve ignores it.
 */
export const GoalProgressRecorded = z.object({
  type: z.literal('GoalProgressRecorded'),
  data: z.object({ goalId, progress, percentage, recordedAt: isoInstant }),
});
/** The runs counted for the goal's week totalled `progress` (written by older versions only). */
export type GoalProgressRecorded = z.infer<typeof GoalProgressRecorded>;

/**
 * The goal reached 100%, and a stake's hold is released on it. Happens again only after a withdrawal; the stake
 * is released once (a settled stake ignores later settlements).
 */
export const GoalCompleted = z.object({
  type: z.literal('GoalCompleted'),
  data: z.object({ goalId, progress, completedAt: isoInstant }),
});
/** The goal reached 100%. */
export type GoalCompleted = z.infer<typeof GoalCompleted>;

/**
 * A run that counted was deleted before the week was settled and progress fell below the target: the goal is no
 * longer completed (it is active again, and may complete again). See decide.ts for what that does to a stake.
 */
export const GoalCompletionWithdrawn = z.object({
  type: z.literal('GoalCompletionWithdrawn'),
  data: z.object({ goalId, progress, percentage, withdrawnAt: isoInstant }),
});
/** The goal's completion was withdrawn. */
export type GoalCompletionWithdrawn = z.infer<typeof GoalCompletionWithdrawn>;

/** The week of a completed goal was settled: the completion and its progress are final. */
export const GoalWeekClosed = z.object({
  type: z.literal('GoalWeekClosed'),
  data: z.object({ goalId, progress, percentage, closedAt: isoInstant }),
});
/** The week of a completed goal was settled. */
export type GoalWeekClosed = z.infer<typeof GoalWeekClosed>;

/** The week ended (and settlement came) without reaching 100%. */
export const GoalMissed = z.object({
  type: z.literal('GoalMissed'),
  data: z.object({ goalId, progress, percentage, closedAt: isoInstant }),
});
/** The week ended without reaching 100%. */
export type GoalMissed = z.infer<typeof GoalMissed>;

/** The user canceled the goal; `stakeForfeited` tells the stake process to capture. */
export const GoalCanceled = z.object({
  type: z.literal('GoalCanceled'),
  data: z.object({
    goalId,
    previousStatus: z.enum(['upcoming', 'active']),
    stakeForfeited: z.boolean(),
    canceledAt: isoInstant,
  }),
});
/** The user canceled the goal. */
export type GoalCanceled = z.infer<typeof GoalCanceled>;

/** An upcoming goal was deleted before its week began. */
export const GoalDeleted = z.object({
  type: z.literal('GoalDeleted'),
  data: z.object({ goalId, deletedAt: isoInstant }),
});
/** An upcoming goal was deleted. */
export type GoalDeleted = z.infer<typeof GoalDeleted>;

/** Every event of the goal stream `goal-<id>`: the goal decider's schema. */
export const GoalEvent = z.discriminatedUnion('type', [
  GoalCreated,
  GoalActivated,
  GoalProgressRecorded,
  GoalCompleted,
  GoalCompletionWithdrawn,
  GoalWeekClosed,
  GoalMissed,
  GoalCanceled,
  GoalDeleted,
]);
/** Every event of the goal stream `goal-<id>`. */
export type GoalEvent = z.infer<typeof GoalEvent>;
