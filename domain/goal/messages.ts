import { type DomainError, domainError } from '../shared/decider.ts';

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
} satisfies Record<string, (...args: never[]) => DomainError>;
