import { z } from 'zod';
import { storableString } from './text.ts';
import { goalErrors } from '../goal/messages.ts';
import { targetError } from '../goal/target.ts';
import { isStakeOption } from '../shared/money.ts';
import { distanceUnitSchema } from './units.ts';

/**
 * POST /goals (§7) with the wizard's rules (§5). `target_value` is in `unit` (km when absent, as the spec's client
 * converts to km before sending); the domain stores km. `start` picks this week or next; it defaults to this week.
 * The same rules run again in the goal decider, so a client that skips this schema gets the same answers.
 */
export const createGoalBodySchema = z
  .object({
    type: z.enum(['distance', 'count'], { error: 'Please choose a distance or run count goal' }),
    target_value: z.number({ error: 'Please enter a valid target value greater than 0' }),
    unit: distanceUnitSchema.default('km'),
    stake_amount_cents: z.number({ error: goalErrors.invalidStake().message }).default(0),
    charity_id: storableString({ error: 'charity_id must be text or null' }).min(1).max(100).nullable().default(null),
    payment_method_id: storableString({ error: 'payment_method_id must be text or null' })
      .min(1)
      .max(255)
      .nullable()
      .default(null),
    start: z.enum(['this_week', 'next_week']).default('this_week'),
  })
  .superRefine((body, ctx) => {
    const target = targetError(body.type, body.target_value, body.unit);
    if (target !== null) ctx.addIssue({ code: 'custom', path: ['target_value'], message: target });
    if (!isStakeOption(body.stake_amount_cents)) {
      ctx.addIssue({ code: 'custom', path: ['stake_amount_cents'], message: goalErrors.invalidStake().message });
    }
    if (body.stake_amount_cents === 0 && body.charity_id !== null) {
      ctx.addIssue({ code: 'custom', path: ['charity_id'], message: goalErrors.charityWithoutStake().message });
    }
    if (body.stake_amount_cents > 0 && body.payment_method_id === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['payment_method_id'],
        message: goalErrors.paymentMethodRequired().message,
      });
    }
  });

/** A parsed goal creation body. */
export type CreateGoalBody = z.infer<typeof createGoalBodySchema>;

/** PATCH /goals/{id} (§7): the only change a client makes is canceling. */
export const patchGoalBodySchema = z.object({
  status: z.literal('canceled', { error: 'Only canceling a goal is supported' }),
});
