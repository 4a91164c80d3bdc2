import { Hono } from 'hono';
import { z } from 'zod';
import { storableString } from '../../../domain/validation/text.ts';
import { STAKE_PUBLIC_STATUSES, stakeLabel } from '../../../domain/stake/labels.ts';
import { findUserStake, listUserStakes, type StakeListRow } from '../../../projections/stakes/stake-queries.ts';
import { requireUser } from '../middleware/require-user.ts';
import { openStakeForGoal } from '../../commands/stakes/open-stake-for-goal.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { awaitReadModels } from '../read-your-writes.ts';
import { commandContext, parseRequest, pathId, readJson } from '../request.ts';

/** GET /stakes's query (also its OpenAPI description). */
export const listQuery = z.object({
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',') : []))
    .pipe(z.array(z.enum(STAKE_PUBLIC_STATUSES, { error: 'Unknown stake status' }))),
  goal_id: storableString().min(1).max(200).optional(),
  has_charity: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const openBody = z.object({
  goal_id: storableString({ error: 'goal_id is required' }).min(1, 'goal_id is required').max(200),
});

/**
 * A stake as the Stakes tab shows it (§3 Stake, §4 labels), with the last payment problem for the runner to fix:
 * `payment_problem` (hold_failed, declined, authentication_required), the issuer's `decline_code`, `next_attempt_at`.
 */
function stakeJson(s: StakeListRow) {
  return {
    id: s.id,
    goal_id: s.goal_id,
    week_start: s.week_start,
    amount_cents: s.amount_cents,
    donation_amount_cents: s.donation_amount_cents,
    fee_cents: s.fee_cents,
    charity_id: s.charity_id,
    charity: s.charity_id ? { id: s.charity_id, name: s.charity_name, logo_url: s.charity_logo_url } : null,
    status: s.status,
    label: stakeLabel(s.status),
    // A live authorization on the card right now (placed when the goal's week started, until released or taken).
    on_hold: s.stage === 'active',
    payment_problem: s.last_failure,
    decline_code: s.decline_code,
    next_attempt_at: s.next_attempt_at ? new Date(s.next_attempt_at).toISOString() : null,
    created_at: new Date(s.created_at).toISOString(),
    settled_at: s.settled_at ? new Date(s.settled_at).toISOString() : null,
  };
}

/** Stakes (§7): the list for the Stakes tab and the donation impact card, and opening a staked goal's stake. */
export function stakesRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  return new Hono<AppEnv>()
    .get('/stakes', guard, async (c) => {
      const q = parseRequest(listQuery, c.req.query());
      const rows = await listUserStakes(db, c.var.userId, {
        status: q.status,
        goalId: q.goal_id,
        withCharity: q.has_charity === 'true',
        limit: q.limit,
      });
      return c.json({ success: true as const, stakes: rows.map(stakeJson) });
    })
    .get('/stakes/:id', guard, async (c) => {
      const stake = await findUserStake(db, c.var.userId, pathId(c));
      if (!stake) throw new HttpError(404, 'Stake not found');
      return c.json({ success: true as const, data: stakeJson(stake) });
    })
    .post('/stakes', guard, async (c) => {
      const body = parseRequest(openBody, await readJson(c));
      const context = commandContext(deps, c);
      const { stakeId, position } = await openStakeForGoal(context, body.goal_id);
      await awaitReadModels(c, deps.projections, position, { needs: ['stakes'], status: 201, data: { id: stakeId } });
      const stake = await findUserStake(db, context.userId, stakeId);
      if (!stake) throw new HttpError(404, 'Stake not found');
      return c.json({ success: true as const, data: stakeJson(stake) }, position ? 201 : 200);
    });
}
