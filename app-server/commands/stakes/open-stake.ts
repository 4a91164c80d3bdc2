import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { GoalDetails } from '../../../domain/goal/events.ts';
import { goalErrors } from '../../../domain/goal/messages.ts';
import { domainError } from '../../../domain/shared/decider.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeEvent } from '../../../domain/stake/events.ts';
import { stakeCommandFor } from '../../../domain/stake/from-goal.ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';
import { PAYMENTS_NOT_CONFIGURED_MESSAGE } from '../../adapters/payments/create-payment-gateway.ts';
import { isActiveCharity } from '../../charities/charity-queries.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { ownsCard } from './payment-customer.ts';

/** Messages of a staked goal that cannot be accepted. */
export const stakeRefusals = {
  notConfigured: () =>
    new DomainRefusal(domainError('invalid', 'payments_not_configured', PAYMENTS_NOT_CONFIGURED_MESSAGE)),
  // The wizard's own message: an unknown card, or someone else's, is treated as no card at all.
  noCard: () => new DomainRefusal(goalErrors.paymentMethodRequired()),
  charity: () =>
    new DomainRefusal(domainError('invalid', 'charity_not_found', 'Please choose a charity from the list.')),
};

/**
 * Checks a stake's money terms before the goal is created: payments configured, the card saved by this user (a
 * card of someone else is refused like a missing one) and the charity active. Throws a 400 refusal otherwise.
 */
export async function checkStakeTerms(
  db: Kysely<object>,
  gateway: PaymentGateway | null,
  userId: string,
  terms: { stakeAmountCents: number; paymentMethodId: string | null; charityId: string | null },
): Promise<void> {
  if (terms.stakeAmountCents === 0) return;
  if (gateway === null) throw stakeRefusals.notConfigured();
  if (terms.paymentMethodId === null || !(await ownsCard(db, gateway, userId, terms.paymentMethodId))) {
    throw stakeRefusals.noCard();
  }
  if (terms.charityId !== null && !(await isActiveCharity(db, terms.charityId))) throw stakeRefusals.charity();
}

/**
 * The StakeOpened event for a new staked goal (none for a free one), to append in the goal's own transaction so a
 * staked goal never exists without its stake. The stake process repeats this on GoalCreated (a no-op then).
 */
export function stakeOpeningEvents(goal: GoalDetails, now: Date): StakeEvent[] {
  const command = stakeCommandFor(
    { type: 'GoalCreated', data: { ...goal, createdAt: now.toISOString() } },
    Temporal.Instant.fromEpochMilliseconds(now.getTime()),
  );
  if (command === null || command.type !== 'OpenStake') return [];
  const decision = stakeDecider.decide(command, stakeDecider.initialState);
  if (isLeft(decision)) throw new DomainRefusal(decision.left);
  return [...decision.right];
}
