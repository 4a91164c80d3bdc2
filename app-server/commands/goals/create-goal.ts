import { randomUUID } from 'node:crypto';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decideCreateGoal } from '../../../domain/goal/create-goal.ts';
import { type UserGoalsEvent, userGoalsDecider } from '../../../domain/goal/user-goals.ts';
import { domainError, foldEvents } from '../../../domain/shared/decider.ts';
import { type LogPosition, WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import type { CreateGoalBody } from '../../../domain/validation/goal.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { stakeIdForGoal } from '../../../domain/stake/from-goal.ts';
import { stakeStreamId } from '../../process/stakes/stake-stream.ts';
import { stakeOpeningEvents } from '../stakes/open-stake.ts';
import { toNewEvent } from '../execute-command.ts';
import { instantOf, type UserCommandContext, userMetadata } from './command-context.ts';

/**
 * Until the payments port has real adapters (the money issue), a stake cannot be held, so a staked goal would
 * promise something the product cannot do. Refused plainly rather than accepted and silently left unheld.
 */
export const STAKES_UNAVAILABLE = 'Money stakes are not available yet. Please choose a free goal ($0).';

/** Whether stakes above 0 are accepted; flipped on when the payments port is wired. */
export const STAKES_ENABLED = true;

/**
 * Creates a goal: the goal's own rules, then the one-goal-per-week rule of the user's goal index. Both streams are
 * appended in ONE transaction, so a crash never leaves a reserved week without its goal; a lost race on the index
 * (a double submit) re-reads and decides again, and the loser is refused with the index's message.
 */
export async function createGoal(
  context: UserCommandContext,
  body: CreateGoalBody,
  timeZone: string,
): Promise<{ goalId: string; position: LogPosition }> {
  if (body.stake_amount_cents > 0 && !STAKES_ENABLED) {
    throw new DomainRefusal(domainError('invalid', 'stakes_unavailable', STAKES_UNAVAILABLE));
  }
  const goalId = randomUUID();
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
  const indexStream = `user-goals-${context.userId}`;
  const metadata = userMetadata(context);
  for (let attempt = 1; ; attempt++) {
    const history = await context.store.readStream(indexStream);
    const index = foldEvents(
      userGoalsDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as UserGoalsEvent),
    );
    const decision = decideCreateGoal(command, index);
    if (isLeft(decision)) throw new DomainRefusal(decision.left);
    const { indexEvents, goalEvents } = decision.right;
    const last = history[history.length - 1];
    try {
      const position = await context.database.db.transaction().execute(async (tx) => {
        if (indexEvents.length > 0) {
          await context.store.appendToStream(
            indexStream,
            indexEvents.map((e) => toNewEvent(e, metadata)),
            {
              expectedVersion: last ? last.streamRevision : 'no_stream',
              transaction: tx,
            },
          );
        }
        const appended = await context.store.appendToStream(
          `goal-${goalId}`,
          goalEvents.map((e) => toNewEvent(e, metadata)),
          { expectedVersion: 'no_stream', transaction: tx },
        );
        // A staked goal opens its stake in the same transaction (money issue); the route checked the card first.
        const created = goalEvents.find((e) => e.type === 'GoalCreated');
        const stakeEvents = created?.type === 'GoalCreated' ? stakeOpeningEvents(created.data, context.now) : [];
        if (stakeEvents.length === 0) return appended.position;
        const stake = await context.store.appendToStream(
          stakeStreamId(stakeIdForGoal(goalId)),
          stakeEvents.map((e) => toNewEvent(e, metadata)),
          { expectedVersion: 'no_stream', transaction: tx },
        );
        return stake.position;
      });
      return { goalId, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < 3) continue;
      throw error;
    }
  }
}
