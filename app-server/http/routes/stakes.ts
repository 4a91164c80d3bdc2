import { Hono } from 'hono';
import { z } from 'zod';
import { storableString } from '../../../domain/validation/text.ts';
import type { HoldTimeline } from '../../../domain/stake/hold-timeline.ts';
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
export function stakeJson(s: StakeListRow) {
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
    // The hold as a timeline (domain/stake/hold-timeline.ts): each step with its reason, and the provider's deadline.
    hold: holdJson(s.hold),
  };
}

/** The timeline with its instants written as every other instant of the API (toISOString, milliseconds). */
function holdJson(h: HoldTimeline) {
  const instant = (v: string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    placed_at: instant(h.placed_at),
    capture_before: instant(h.capture_before),
    expired_at: instant(h.expired_at),
    released_at: instant(h.released_at),
    captured_at: instant(h.captured_at),
    refunded_at: instant(h.refunded_at),
    steps: h.steps.map((step) => ({ kind: step.kind, at: new Date(step.at).toISOString(), reason: step.reason })),
  };
}

/**
 * The runner's receipt of a collected stake (the printable page linked from the donation impact card): what was
 * taken, when, how it was split, for which charity, and what was given back since.
 */
function receiptJson(s: StakeListRow) {
  const hold = holdJson(s.hold);
  const collected = hold.steps.find((step) => step.kind === 'captured');
  return {
    stake_id: s.id,
    week_start: s.week_start,
    status: s.status,
    label: stakeLabel(s.status),
    captured_cents: s.captured_cents,
    donation_amount_cents: s.donation_amount_cents,
    fee_cents: s.fee_cents,
    refunded_cents: s.refunded_cents,
    charity: s.charity_id ? { id: s.charity_id, name: s.charity_name } : null,
    captured_at: hold.captured_at,
    refunded_at: hold.refunded_at,
    reason: collected?.reason ?? null,
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
    .get('/stakes/:id/receipt', guard, async (c) => {
      const stake = await findUserStake(db, c.var.userId, pathId(c));
      if (!stake) throw new HttpError(404, 'Stake not found');
      // Only money actually taken has a receipt; a kept or unpaid stake has nothing to show.
      if (stake.captured_cents === 0 || stake.hold.captured_at === null) {
        throw new HttpError(404, 'This stake was not charged, so it has no receipt');
      }
      return c.json({ success: true as const, data: receiptJson(stake) });
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
