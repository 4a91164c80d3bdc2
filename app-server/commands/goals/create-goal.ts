import { isLeft } from 'fp-ts/lib/Either.js';
import type { Transaction } from 'kysely';
import type { CreateGoal } from '../../../domain/goal/commands.ts';
import { decideCreateGoal } from '../../../domain/goal/create-goal.ts';
import { userGoalsDecider } from '../../../domain/goal/user-goals.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import type { CreateGoalBody } from '../../../domain/validation/goal.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { stakeIdForGoal } from '../../../domain/stake/from-goal.ts';
import { stakeOpeningEvents } from '../stakes/open-stake.ts';
import { appendEvents, loadAggregate } from '../execute-command.ts';
import { inTransaction, instantOf, newAggregateId, type UserCommandContext, userMetadata } from '../command-context.ts';
import { streams } from '../../../domain/shared/streams.ts';

/**
 * Creates a goal: the goal's own rules, then the one-goal-per-week rule of the user's goal index. Both streams are
 * appended in ONE transaction (`tx`, a keyed request's, or one of its own), so a crash never leaves a reserved week
 * without its goal; a lost race on the index (a double submit) re-reads and decides again, and the loser is refused
 * with the index's message.
 */
export async function createGoal(
  context: UserCommandContext,
  body: CreateGoalBody,
  timeZone: string,
  tx?: Transaction<object>,
): Promise<{ goalId: string; position: LogPosition }> {
  const goalId = newAggregateId();
  const command = {
    type: 'CreateGoal',
    goalId,
    userId: context.userId,
    goalType: body.type,
    targetValue: body.target_value,
    unit: body.unit,
    stakeAmountCents: body.stake_amount_cents,
    charityId: body.charity_id,
    paymentMethodId: body.payment_method_id,
    timeZone,
    start: body.start,
    now: instantOf(context),
  } as const;
  return inTransaction(context, tx, (transaction) => appendGoal(context, command, transaction));
}

/**
 * The goal's index, goal and stake events in one transaction: the index decides (one goal a week, one upcoming
 * goal) on a read inside it, and a lost race on the index (a double submit) runs it all again on fresh reads.
 */
async function appendGoal(
  context: UserCommandContext,
  command: CreateGoal,
  tx: Transaction<object>,
): Promise<{ goalId: string; position: LogPosition }> {
  const { goalId } = command;
  const indexStream = streams.userGoals(context.userId);
  const metadata = userMetadata(context);
  const index = await loadAggregate(context.store, userGoalsDecider, indexStream, tx);
  const decision = decideCreateGoal(command, index.state);
  if (isLeft(decision)) throw new DomainRefusal(decision.left);
  const { indexEvents, goalEvents } = decision.right;
  await appendEvents(context.store, indexStream, indexEvents, metadata, index.expectedVersion, tx);
  const goal = await appendEvents(context.store, streams.goal(goalId), goalEvents, metadata, 'no_stream', tx);
  // A staked goal opens its stake in the same transaction (money issue); the route checked the card first.
  const created = goalEvents.find((e) => e.type === 'GoalCreated');
  const stakeEvents = created?.type === 'GoalCreated' ? stakeOpeningEvents(created.data, context.now) : [];
  const stakeStream = streams.stake(stakeIdForGoal(goalId));
  const stake = await appendEvents(context.store, stakeStream, stakeEvents, metadata, 'no_stream', tx);
  const position = (stake ?? goal)?.position;
  if (!position) throw new Error('a created goal appends its GoalCreated event');
  return { goalId, position };
}
