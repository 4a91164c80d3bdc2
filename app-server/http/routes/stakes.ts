import { Hono } from 'hono';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { storableString } from '../../../domain/validation/text.ts';
import type { HoldTimeline } from '../../../domain/stake/hold-timeline.ts';
import { STAKE_PUBLIC_STATUSES, stakeLabelWithAppeal } from '../../../domain/stake/labels.ts';
import { mayAppeal } from '../../../domain/stake/appeal-decide.ts';
import { isFinal, type RefundState, type StakeState } from '../../../domain/stake/state.ts';
import { appealBodySchema } from '../../../domain/validation/stake-appeal.ts';
import { appealStake, vouchForStake } from '../../commands/stakes/appeal-stake.ts';
import { findUserStake, listUserStakes, type StakeListRow } from '../../../projections/stakes/stake-queries.ts';
import { requireUser } from '../middleware/require-user.ts';
import { openStakeForGoal } from '../../commands/stakes/open-stake-for-goal.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { readModelsAt } from '../read-your-writes.ts';
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
export function stakeJson(s: StakeListRow, now: Date) {
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
    label: labelOf(s),
    // The runner's appeal of a missed week (issue 25), and whether one may be made now.
    appeal: appealJson(s.state),
    appealable: s.state.status !== 'none' && mayAppeal(s.state, Temporal.Instant.fromEpochMilliseconds(now.getTime())),
    refund: s.state.status !== 'none' && s.state.refund ? refundJson(s.state.refund) : null,
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

/** The Stakes tab's label, with what an appeal or a refund changed. */
function labelOf(s: StakeListRow): string {
  const state = s.state;
  return state.status === 'none'
    ? stakeLabelWithAppeal(s.status, null, null)
    : stakeLabelWithAppeal(s.status, state.appeal, state.refund);
}

/** The appeal as its runner sees it: where it stands, until when settlement waits, how many vouched. */
function appealJson(state: StakeState) {
  if (state.status === 'none' || !state.appeal) return null;
  const { decideBy, vouchers } = state.appeal;
  // An appeal left undecided by a stake that ended anyway (its goal completed on the last day) is closed.
  const undecided = state.appeal.status === 'open' || state.appeal.status === 'referred';
  const status = undecided && isFinal(state.status) ? 'closed' : state.appeal.status;
  return { status, decide_by: new Date(decideBy).toISOString(), vouches: vouchers.length };
}

function refundJson(refund: RefundState) {
  return { status: refund.status, amount_cents: refund.amountCents };
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
    label: labelOf(s),
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
      const now = deps.clock.now();
      return c.json({ success: true as const, stakes: rows.map((row) => stakeJson(row, now)) });
    })
    .get('/stakes/:id', guard, async (c) => {
      const stake = await findUserStake(db, c.var.userId, pathId(c));
      if (!stake) throw new HttpError(404, 'Stake not found');
      return c.json({ success: true as const, data: stakeJson(stake, deps.clock.now()) });
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
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: { id: stakeId } });
      if (!wait.ready) return wait.answer;
      const stake = await findUserStake(db, context.userId, stakeId);
      if (!stake) throw new HttpError(404, 'Stake not found');
      return c.json({ success: true as const, data: stakeJson(stake, context.now) }, position ? 201 : 200);
    })
    .post('/stakes/:id/appeal', guard, async (c) => {
      const stakeId = pathId(c);
      const body = parseRequest(appealBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const { position } = await appealStake(context, stakeId, body);
      const answer = { id: stakeId, appeal: 'received' };
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: answer });
      if (!wait.ready) return wait.answer;
      const stake = await findUserStake(db, context.userId, stakeId);
      if (!stake) throw new HttpError(404, 'Stake not found');
      return c.json({ success: true as const, data: stakeJson(stake, context.now) }, 201);
    })
    .post('/stakes/:id/vouch', guard, async (c) => {
      const stakeId = pathId(c);
      const context = commandContext(deps, c);
      const { position } = await vouchForStake(context, stakeId);
      const answer = { id: stakeId, vouched: true };
      // The runner's Stakes tab counts the vouch as soon as the mate is told it was recorded.
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: answer });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: answer }, position ? 201 : 200);
    });
}
