import { type DomainError, domainError } from '../shared/decider.ts';

/** Every refusal of the stake aggregate. */
export const stakeErrors = {
  notFound: () => domainError('not_found', 'stake_not_found', 'Stake not found'),
  exists: () => domainError('conflict', 'stake_exists', 'This stake already exists'),
  invalidAmount: () => domainError('invalid', 'invalid_stake', 'Please choose a stake of $5, $10, $20, $50 or $100'),
  holdAlreadyExpired: () => domainError('invalid', 'hold_already_expired', 'The hold expires before it could be used'),
  holdStillValid: () => domainError('conflict', 'hold_still_valid', 'The hold is still valid'),
  tooEarly: () => domainError('conflict', 'stake_too_early', 'This stake cannot be settled before its week has ended'),
  beingCollected: () => domainError('conflict', 'stake_being_collected', 'This stake is already being collected'),
  noCapturePending: () => domainError('conflict', 'no_capture_pending', 'No capture is pending for this stake'),
  noChargePending: () => domainError('conflict', 'no_charge_pending', 'No charge is pending for this stake'),
  retryNotDue: () => domainError('conflict', 'retry_not_due', 'The next charge attempt is not due yet'),
  wrongAmount: () => domainError('invalid', 'wrong_amount', 'The amount collected must equal the stake'),
} satisfies Record<string, (...args: never[]) => DomainError>;

/** Refusals of appeals, vouches and refunds (appeal-decide.ts). */
export const appealErrors = {
  notYet: (opensAt: string) =>
    domainError('conflict', 'appeal_not_open', `You can appeal from the last day of the week (${opensAt})`),
  notAppealable: () =>
    domainError('conflict', 'appeal_closed', 'This stake can no longer be appealed: it is already settled'),
  alreadyAppealed: () => domainError('conflict', 'appeal_exists', 'You have already appealed this stake'),
  noAppeal: () => domainError('conflict', 'no_appeal', 'There is no appeal to decide on this stake'),
  decided: () => domainError('conflict', 'appeal_decided', 'This appeal has already been decided'),
  pending: () => domainError('conflict', 'stake_appeal_pending', 'This stake waits for the decision on its appeal'),
  ownStake: () => domainError('invalid', 'vouch_own_stake', 'You cannot vouch for your own stake'),
  alreadyVouched: () => domainError('conflict', 'vouch_exists', 'You have already vouched for this run'),
  noRefund: () => domainError('conflict', 'refund_not_allowed', 'This stake cannot be refunded'),
  noRefundPending: () => domainError('conflict', 'no_refund_pending', 'No refund is pending for this stake'),
} satisfies Record<string, (...args: never[]) => DomainError>;
