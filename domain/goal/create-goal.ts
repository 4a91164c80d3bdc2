import { type Either, chain, map } from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../shared/decider.ts';
import type { CreateGoal } from './commands.ts';
import { goalDecider } from './decide.ts';
import type { GoalEvent } from './events.ts';
import { type UserGoalsEvent, type UserGoalsState, userGoalsDecider } from './user-goals.ts';

/** The events of one CreateGoal, for the two streams it touches. */
export interface CreateGoalDecision {
  /** Append to `user-goals-<userId>` first, with its expected version. */
  readonly indexEvents: readonly UserGoalsEvent[];
  /** Then to `goal-<goalId>` with `no_stream`. */
  readonly goalEvents: readonly GoalEvent[];
}

/**
 * Decides a new goal against the user's goal index: the goal's own rules first (so the refusal a user sees is about
 * what they typed), then the one-goal-per-week rule.
 */
export function decideCreateGoal(command: CreateGoal, index: UserGoalsState): Either<DomainError, CreateGoalDecision> {
  return pipe(
    goalDecider.decide(command, goalDecider.initialState),
    chain((goalEvents) => {
      const created = goalEvents[0];
      if (created?.type !== 'GoalCreated') throw new Error('CreateGoal must start with GoalCreated');
      const { weekStart, timeZone } = created.data;
      return pipe(
        userGoalsDecider.decide(
          { type: 'ReserveGoalWeek', goalId: command.goalId, weekStart, timeZone, now: command.now },
          index,
        ),
        map((indexEvents) => ({ indexEvents, goalEvents })),
      );
    }),
  );
}
