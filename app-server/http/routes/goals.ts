import { Hono } from 'hono';
import { figuresOfAnswer } from '../../../domain/run/run-figures.ts';
import { milestoneText } from '../../../domain/stats/milestones.ts';
import { runTotals } from '../../../domain/stats/run-totals.ts';
import { createGoalBodySchema, patchGoalBodySchema } from '../../../domain/validation/goal.ts';
import { goalListQuerySchema } from '../../../domain/validation/lists.ts';
import { currentGoalOf } from '../../../projections/goals/current-goal.ts';
import { cachedCurrentGoalRows } from '../current-goal-read.ts';
import { findOwnGoal, findUpcomingGoal, listGoals } from '../../../projections/goals/goal-queries.ts';
import { runsBetween } from '../../../projections/runs/run-queries.ts';
import { userTimeZone } from '../../auth/user-time-zone.ts';
import { endGoal } from '../../commands/goals/change-goal.ts';
import { createGoal } from '../../commands/goals/create-goal.ts';
import { checkStakeTerms } from '../../commands/stakes/open-stake.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { requireUser } from '../middleware/require-user.ts';
import { readModelsAt } from '../read-your-writes.ts';
import { commandContext, keyedRequest, parseRequest, pathId, readJson } from '../request.ts';
import { goalPausesRoutes } from './goal-pauses.ts';
import { goalHistoryJson, goalJson } from './goals-json.ts';
import { runsJson } from './runs-json.ts';

const GOAL_NOT_FOUND = 'Goal not found';

/**
 * Goals (§7): create, the current and upcoming goal, history, one goal, its stats, cancel and delete. Commands wait
 * until the read models have applied their events before answering, so the caller's next query sees them.
 * Pauses (issue 25, goal-pauses.ts) are mounted before /goals/:id, which would otherwise take /goals/pauses.
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
    .post('/goals', guard, async (c) => {
      const raw = await readJson(c);
      const body = parseRequest(createGoalBodySchema, raw);
      const context = commandContext(deps, c);
      const keyed = await keyedRequest(deps, c, raw);
      await checkStakeTerms(db, deps.payments, context.userId, {
        stakeAmountCents: body.stake_amount_cents,
        paymentMethodId: body.payment_method_id,
        charityId: body.charity_id,
      });
      const timeZone = await userTimeZone(db, context.userId);
      const { goalId, position } = await keyed.once((tx) => createGoal(context, body, timeZone, tx));
      // A staked goal opened its stake in the same transaction: its StakeOpened makes the wait include the stakes read
      // model, so the runner's next GET /stakes shows it (pending).
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: { id: goalId } });
      if (!wait.ready) return wait.answer;
      return c.json(
        { success: true as const, data: goalJson(await ownGoalOr404(context.userId, goalId), context.now) },
        201,
      );
    })
    .get('/goals/current', guard, async (c) => {
      const now = deps.clock.now();
      const userId = c.var.userId;
      // The rows are cached (current-goal-read.ts), kept also by a saved run's answer.
      const started = await cachedCurrentGoalRows(deps.readCache, db, userId, now);
      const goal = currentGoalOf(started, now);
      return c.json({ success: true as const, data: goal ? goalJson(goal, now) : null });
    })
    .get('/goals/upcoming', guard, async (c) => {
      const now = deps.clock.now();
      const goal = await findUpcomingGoal(db, c.var.userId);
      return c.json({ success: true as const, data: goal ? goalJson(goal, now) : null });
    })
    .get('/goals', guard, async (c) => {
      const query = parseRequest(goalListQuerySchema, c.req.query());
      const now = deps.clock.now();
      const goals = await listGoals(db, c.var.userId, query);
      return c.json({ success: true as const, goals: goals.map((g) => goalHistoryJson(g, now)) });
    })
    .route('/', goalPausesRoutes(deps))
    .get('/goals/:id', guard, async (c) => {
      const goal = await ownGoalOr404(c.var.userId, pathId(c));
      return c.json({ success: true as const, data: goalJson(goal, deps.clock.now()) });
    })
    .get('/goals/:id/stats', guard, async (c) => {
      const goal = await ownGoalOr404(c.var.userId, pathId(c));
      const runs = await runsJson(
        db,
        c.var.userId,
        await runsBetween(db, c.var.userId, goal.week_starts_at, goal.week_ends_at),
      );
      // Totals over each run's own figures (the distance the policy counts), as every run screen shows them.
      const stats = runTotals(
        runs.map((run) => ({ distance_km: figuresOfAnswer(run).distanceKm, duration_sec: run.duration_sec })),
      );
      return c.json({
        success: true as const,
        goal: goalJson(goal, deps.clock.now()),
        stats,
        runs,
        milestone: milestoneText(stats.total_distance_km),
      });
    })
    .patch('/goals/:id', guard, async (c) => {
      parseRequest(patchGoalBodySchema, await readJson(c));
      const context = commandContext(deps, c);
      const id = pathId(c);
      const { position } = await endGoal(context, id, 'cancel');
      const wait = await readModelsAt(c, deps.projections, position, { status: 200, data: { id } });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: goalJson(await ownGoalOr404(context.userId, id), context.now) });
    })
    .delete('/goals/:id', guard, async (c) => {
      const context = commandContext(deps, c);
      const id = pathId(c);
      const { position } = await endGoal(context, id, 'delete');
      const deleted = { id, deleted: true };
      const wait = await readModelsAt(c, deps.projections, position, { status: 200, data: deleted });
      if (!wait.ready) return wait.answer;
      return c.json({ success: true as const, data: deleted });
    });
}
