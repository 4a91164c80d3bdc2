import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { DEFAULT_TIME_ZONE } from '../../../domain/shared/time-zone.ts';
import { milestoneText } from '../../../domain/stats/milestones.ts';
import { runTotals } from '../../../domain/stats/run-totals.ts';
import { createGoalBodySchema, patchGoalBodySchema } from '../../../domain/validation/goal.ts';
import { goalListQuerySchema } from '../../../domain/validation/lists.ts';
import { findCurrentGoal, findOwnGoal, findUpcomingGoal, listGoals } from '../../../projections/goals/goal-queries.ts';
import { runsBetween } from '../../../projections/runs/run-queries.ts';
import { requireUser } from '../../auth/guard.ts';
import { endGoal } from '../../commands/goals/change-goal.ts';
import { createGoal } from '../../commands/goals/create-goal.ts';
import { checkStakeTerms } from '../../commands/stakes/open-stake.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { commandContext, parseWith, readJson } from './goals-input.ts';
import { goalHistoryJson, goalJson } from './goals-json.ts';
import { runJson } from './runs-json.ts';

const GOAL_NOT_FOUND = 'Goal not found';

/** The product user's zone (§3 User timezone), locked into each goal at creation. */
async function userTimeZone(db: Kysely<object>, userId: string): Promise<string> {
  const row = await (db as Kysely<{ users: { id: string; timezone: string } }>)
    .selectFrom('users')
    .select('timezone')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.timezone ?? DEFAULT_TIME_ZONE;
}

/**
 * Goals (§7): create, the current and upcoming goal, history, one goal, its stats, cancel and delete. Commands wait
 * until the read models have applied their events before answering, so the caller's next query sees them.
 */
export function goalsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const ownGoalOr404 = async (userId: string, id: string) => {
    const goal = await findOwnGoal(db, userId, id);
    if (!goal) throw new HttpError(404, GOAL_NOT_FOUND);
    return goal;
  };
  return new Hono<AppEnv>()
    .use('/goals', guard)
    .use('/goals/*', guard)
    .post('/goals', async (c) => {
      const body = parseWith(createGoalBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      await checkStakeTerms(db, deps.payments, context.userId, {
        stakeAmountCents: body.stake_amount_cents,
        paymentMethodId: body.payment_method_id,
        charityId: body.charity_id,
      });
      const { goalId, position } = await createGoal(context, body, await userTimeZone(db, context.userId));
      await deps.projections.waitFor(position);
      return c.json(
        { success: true as const, data: goalJson(await ownGoalOr404(context.userId, goalId), context.now) },
        201,
      );
    })
    .get('/goals/current', async (c) => {
      const now = deps.clock.now();
      const goal = await findCurrentGoal(db, c.var.userId, now);
      return c.json({ success: true as const, data: goal ? goalJson(goal, now) : null });
    })
    .get('/goals/upcoming', async (c) => {
      const now = deps.clock.now();
      const goal = await findUpcomingGoal(db, c.var.userId);
      return c.json({ success: true as const, data: goal ? goalJson(goal, now) : null });
    })
    .get('/goals', async (c) => {
      const query = parseWith(goalListQuerySchema, c.req.query());
      const now = deps.clock.now();
      const goals = await listGoals(db, c.var.userId, query);
      return c.json({ success: true as const, goals: goals.map((g) => goalHistoryJson(g, now)) });
    })
    .get('/goals/:id', async (c) => {
      const goal = await ownGoalOr404(c.var.userId, c.req.param('id'));
      return c.json({ success: true as const, data: goalJson(goal, deps.clock.now()) });
    })
    .get('/goals/:id/stats', async (c) => {
      const goal = await ownGoalOr404(c.var.userId, c.req.param('id'));
      const runs = await runsBetween(db, c.var.userId, goal.week_starts_at, goal.week_ends_at);
      const stats = runTotals(runs);
      return c.json({
        success: true as const,
        goal: goalJson(goal, deps.clock.now()),
        stats,
        runs: runs.map(runJson),
        milestone: milestoneText(stats.total_distance_km),
      });
    })
    .patch('/goals/:id', async (c) => {
      parseWith(patchGoalBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const id = c.req.param('id');
      const { position } = await endGoal(context, id, 'cancel');
      if (position) await deps.projections.waitFor(position);
      return c.json({ success: true as const, data: goalJson(await ownGoalOr404(context.userId, id), context.now) });
    })
    .delete('/goals/:id', async (c) => {
      const context = commandContext(deps, c);
      const id = c.req.param('id');
      const { position } = await endGoal(context, id, 'delete');
      if (position) await deps.projections.waitFor(position);
      return c.json({ success: true as const, data: { id, deleted: true } });
    });
}
