import type { CardBehaviour } from './tables.ts';

/** A card the local gateway knows, named like Stripe's test cards (token and number). */
export type TestCard = {
  readonly token: string;
  readonly number: string;
  readonly brand: string;
  readonly behaviour: CardBehaviour;
};

/**
 * Stripe's test cards, by PaymentMethod token and card number. Unlike Stripe, a declining card may still be saved
 * (Stripe's 4000000000000341 behaviour), so a saved card's later decline can be tested; `setCardBehaviour` on the
 * gateway changes a saved card's answer afterwards (the runner's card got blocked, the account ran dry).
 */
export const TEST_CARDS: readonly TestCard[] = [
  { token: 'pm_card_visa', number: '4242424242424242', brand: 'visa', behaviour: 'succeeds' },
  { token: 'pm_card_mastercard', number: '5555555555554444', brand: 'mastercard', behaviour: 'succeeds' },
  { token: 'pm_card_amex', number: '378282246310005', brand: 'amex', behaviour: 'succeeds' },
  { token: 'pm_card_visa_chargeDeclined', number: '4000000000000002', brand: 'visa', behaviour: 'generic_decline' },
  {
    token: 'pm_card_visa_chargeDeclinedInsufficientFunds',
    number: '4000000000009995',
    brand: 'visa',
    behaviour: 'insufficient_funds',
  },
  { token: 'pm_card_chargeCustomerFail', number: '4000000000000341', brand: 'visa', behaviour: 'generic_decline' },
  {
    token: 'pm_card_authenticationRequired',
    number: '4000002760003184',
    brand: 'visa',
    behaviour: 'authentication_required',
  },
];

/** The test card for a token (`pm_card_visa`) or a number (spaces allowed), or null. */
export function findTestCard(tokenOrNumber: string): TestCard | null {
  const wanted = tokenOrNumber.replaceAll(' ', '');
  return TEST_CARDS.find((card) => card.token === wanted || card.number === wanted) ?? null;
}

/** What a refused payment looks like at Stripe for each behaviour: error code, decline code and message. */
export function declineOf(behaviour: Exclude<CardBehaviour, 'succeeds'>): {
  code: string;
  declineCode: string;
  message: string;
} {
  switch (behaviour) {
    case 'generic_decline':
      return { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' };
    case 'insufficient_funds':
      return { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' };
    case 'authentication_required':
      return {
        code: 'authentication_required',
        declineCode: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
      };
    default: {
      const never: never = behaviour;
      throw new Error(`unknown card behaviour ${String(never)}`);
    }
  }
}
