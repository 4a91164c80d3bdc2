import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { goalErrors } from '../goal/messages.ts';
import { PAUSE_REASONS } from '../goal/pause-horizon.ts';

const WEEK_START_RULE = 'week_start: must be a date written YYYY-MM-DD, such as 2026-12-07';

/** A real calendar date 'YYYY-MM-DD' that is a Monday (the first day of a week in every zone). */
export const pauseWeekStartSchema = z
  .string({ error: WEEK_START_RULE })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: WEEK_START_RULE })
  .refine(
    (date) => {
      try {
        Temporal.PlainDate.from(date, { overflow: 'reject' });
        return true;
      } catch {
        return false;
      }
    },
    { error: WEEK_START_RULE, abort: true },
  )
  .refine((date) => Temporal.PlainDate.from(date).dayOfWeek === 1, { error: goalErrors.pauseNotMonday().message });

/** POST /goals/pauses (issue 25): the Monday of the week to pause, and why (injury, travel or other). */
export const pauseWeekBodySchema = z.strictObject({
  week_start: pauseWeekStartSchema,
  reason: z.enum(PAUSE_REASONS, { error: 'reason: please choose injury, travel or other' }).default('other'),
});

/** A parsed pause request. */
export type PauseWeekBody = z.infer<typeof pauseWeekBodySchema>;
