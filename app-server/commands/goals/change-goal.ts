import { goalDecider } from '../../../domain/goal/decide.ts';
import { goalErrors } from '../../../domain/goal/messages.ts';
import type { GoalState } from '../../../domain/goal/state.ts';
import { userGoalsDecider } from '../../../domain/goal/user-goals.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand } from '../execute-command.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { streams } from '../../../domain/shared/streams.ts';

/** Someone else's goal, or a deleted one, is answered exactly like a goal that does not exist (404, no leak). */
function ownGoal(state: GoalState, userId: string): void {
  if (state.status === 'none' || state.status === 'deleted' || state.goal.userId !== userId) {
    throw new DomainRefusal(goalErrors.notFound());
  }
}

/**
 * Cancels (PATCH status canceled) or deletes (DELETE, upcoming only) the user's goal, then frees its week in the
 * goal index at once so the user can plan another goal straight away (the lifecycle process repeats the release
 * idempotently if this second step is lost). Returns the position to wait for.
 */
export async function endGoal(
  context: UserCommandContext,
  goalId: string,
  how: 'cancel' | 'delete',
): Promise<{ position: LogPosition | null }> {
  const now = instantOf(context);
  const metadata = userMetadata(context);
  const result = await executeCommand(
    context.store,
    goalDecider,
    streams.goal(goalId),
    (state) => {
      ownGoal(state, context.userId);
      return how === 'cancel'
        ? { type: 'CancelGoal' as const, userId: context.userId, now }
        : { type: 'DeleteUpcomingGoal' as const, userId: context.userId, now };
    },
    metadata,
  );
  const released = await executeCommand(
    context.store,
    userGoalsDecider,
    streams.userGoals(context.userId),
    { type: 'ReleaseGoalWeek', goalId },
    metadata,
  );
  return { position: released.append?.position ?? result.append?.position ?? null };
}
