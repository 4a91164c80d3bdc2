import { goalDecider } from '../../../domain/goal/decide.ts';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { domainError, foldEvents } from '../../../domain/shared/decider.ts';
import { stakeIdForGoal } from '../../../domain/stake/from-goal.ts';
import { WrongExpectedVersionError, type LogPosition } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { type UserCommandContext, userMetadata } from '../command-context.ts';
import { stakeOpeningEvents } from './open-stake.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { appendEvents } from '../execute-command.ts';

/**
 * `POST /stakes { goal_id }`: makes sure the stake of one's own staked goal exists (a client that creates the goal
 * and then the stake, as the original app did). The goal's terms decide everything; a repeat returns the same stake.
 */
export async function openStakeForGoal(
  context: UserCommandContext,
  goalId: string,
): Promise<{ stakeId: string; position: LogPosition | null }> {
  const history = await context.store.readStream(streams.goal(goalId));
  const goal = foldEvents(
    goalDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as GoalEvent),
  );
  if (goal.status === 'none' || goal.goal.userId !== context.userId) {
    throw new DomainRefusal(domainError('not_found', 'goal_not_found', 'Goal not found'));
  }
  if (goal.goal.stakeAmountCents === 0) {
    throw new DomainRefusal(domainError('invalid', 'goal_without_stake', 'This goal has no money on it.'));
  }
  const stakeId = stakeIdForGoal(goalId);
  if ((await context.store.readStream(streams.stake(stakeId), { maxCount: 1 })).length > 0) {
    return { stakeId, position: null };
  }
  if (goal.status !== 'upcoming' && goal.status !== 'active') {
    throw new DomainRefusal(domainError('conflict', 'goal_closed', 'This goal is already over.'));
  }
  const events = stakeOpeningEvents(goal.goal, context.now);
  try {
    const append = await appendEvents(
      context.store,
      streams.stake(stakeId),
      events,
      userMetadata(context),
      'no_stream',
    );
    return { stakeId, position: append?.position ?? null };
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) return { stakeId, position: null };
    throw error;
  }
}
