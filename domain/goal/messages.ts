import { Temporal } from 'temporal-polyfill';
import { type DomainError, domainError } from '../shared/decider.ts';

/** A week's Monday as people read it: 'Monday, December 7'. */
export function mondayInWords(weekStart: string): string {
  return Temporal.PlainDate.from(weekStart).toLocaleString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
  });
}

/** Every refusal of the goal aggregate, with its user-facing message. */
export const goalErrors = {
  notFound: () => domainError('not_found', 'goal_not_found', 'Goal not found'),
  exists: () => domainError('conflict', 'goal_exists', 'This goal already exists'),
  invalidTarget: (message: string) => domainError('invalid', 'invalid_target', message),
  invalidStake: () => domainError('invalid', 'invalid_stake', 'Please choose a stake of $0, $5, $10, $20, $50 or $100'),
  charityWithoutStake: () =>
    domainError('invalid', 'charity_without_stake', 'A charity can only be chosen when there is a stake'),
  paymentMethodRequired: () =>
    domainError('invalid', 'payment_method_required', 'Please add a payment method to put money on the line'),
  invalidTimeZone: () => domainError('invalid', 'invalid_time_zone', 'Please choose a valid time zone'),
  notOwner: () => domainError('forbidden', 'not_goal_owner', 'You can only change your own goals'),
  weekNotStarted: () => domainError('conflict', 'week_not_started', 'This goal’s week has not started yet'),
  weekNotOver: () => domainError('conflict', 'week_not_over', 'This goal’s week has not ended yet'),
  notActive: () => domainError('conflict', 'goal_not_active', 'This goal is not active'),
  closed: () => domainError('conflict', 'goal_closed', 'This goal is already closed'),
  invalidProgress: () => domainError('invalid', 'invalid_progress', 'Progress must be a number of at least 0'),
  notCancelable: () =>
    domainError('conflict', 'goal_not_cancelable', 'Only an upcoming or active goal can be canceled'),
  notDeletable: () => domainError('conflict', 'goal_not_deletable', 'Only an upcoming goal can be deleted'),
  alreadyUpcoming: () => domainError('conflict', 'upcoming_goal_exists', 'You already have an upcoming goal'),
  alreadyThisWeek: () => domainError('conflict', 'goal_exists_this_week', 'You already have a goal for this week'),
  // Pauses (issue 25, pause-horizon.ts). Refusals by the rules are 409, as every other rule refusal of the goals API.
  pauseTooSoon: (earliestWeekStart: string) =>
    domainError(
      'conflict',
      'pause_too_soon',
      `Pauses must be set at least 7 days ahead. The earliest week you can pause starts ${mondayInWords(earliestWeekStart)}.`,
    ),
  pauseNotMonday: () =>
    domainError('invalid', 'pause_not_monday', 'Please choose a Monday: a pause covers one Monday–Sunday week.'),
  pauseWeekHasGoal: (weekStart: string) =>
    domainError(
      'conflict',
      'pause_week_has_goal',
      `You already have a goal for the week of ${mondayInWords(weekStart)}. Delete that goal first if you want to pause the week.`,
    ),
  weekPaused: (weekStart: string) =>
    domainError(
      'conflict',
      'week_paused',
      `The week of ${mondayInWords(weekStart)} is paused. Cancel the pause first if you want to set a goal for it.`,
    ),
  pauseNotFound: () => domainError('not_found', 'pause_not_found', 'Pause not found'),
  pauseBegun: () =>
    domainError('conflict', 'pause_begun', 'This pause has already begun, so it can no longer be canceled.'),
} satisfies Record<string, (...args: never[]) => DomainError>;
