import type { CardBehaviour } from './tables.ts';

/** What confirming a SetupIntent with the card does, as in Stripe's test mode. */
export type SetupBehaviour = 'succeeds' | 'declined' | 'requires_authentication';

/** A card the local gateway knows, named like Stripe's test cards (token and number). */
export type TestCard = {
  readonly token: string;
  readonly number: string;
  readonly brand: string;
  /** How saving the card answers (SetupIntent confirmation). */
  readonly setup: SetupBehaviour;
  /** How a payment on the saved card answers. */
  readonly behaviour: CardBehaviour;
};

/**
 * Stripe's test cards, by PaymentMethod token and card number, with Stripe's test-mode behaviour
 * (docs.stripe.com/testing): 0002 is refused when saved; 9995 and 0341 save and fail when charged; 3155 asks for
 * authentication when saved and then pays off-session without asking again; 3184 asks every time.
 * `setCardBehaviour` on the gateway changes a saved card's answer afterwards (the card got blocked, the account ran
 * dry).
 */
export const TEST_CARDS: readonly TestCard[] = [
  { token: 'pm_card_visa', number: '4242424242424242', brand: 'visa', setup: 'succeeds', behaviour: 'succeeds' },
  {
    token: 'pm_card_mastercard',
    number: '5555555555554444',
    brand: 'mastercard',
    setup: 'succeeds',
    behaviour: 'succeeds',
  },
  { token: 'pm_card_amex', number: '378282246310005', brand: 'amex', setup: 'succeeds', behaviour: 'succeeds' },
  {
    token: 'pm_card_visa_chargeDeclined',
    number: '4000000000000002',
    brand: 'visa',
    setup: 'declined',
    behaviour: 'generic_decline',
  },
  {
    token: 'pm_card_visa_chargeDeclinedInsufficientFunds',
    number: '4000000000009995',
    brand: 'visa',
    setup: 'succeeds',
    behaviour: 'insufficient_funds',
  },
  {
    token: 'pm_card_chargeCustomerFail',
    number: '4000000000000341',
    brand: 'visa',
    setup: 'succeeds',
    behaviour: 'generic_decline',
  },
  {
    token: 'pm_card_authenticationRequiredOnSetup',
    number: '4000002500003155',
    brand: 'visa',
    setup: 'requires_authentication',
    behaviour: 'succeeds',
  },
  {
    token: 'pm_card_authenticationRequired',
    number: '4000002760003184',
    brand: 'visa',
    setup: 'requires_authentication',
    behaviour: 'authentication_required',
  },
];

/** The test card for a token (`pm_card_visa`) or a number (spaces allowed), or null. */
export function findTestCard(tokenOrNumber: string): TestCard | null {
  const wanted = tokenOrNumber.replaceAll(' ', '');
  return TEST_CARDS.find((card) => card.token === wanted || card.number === wanted) ?? null;
}

/** A refusal as Stripe reports it: error code, the issuer's decline code, and the message shown to the cardholder. */
export type CardRefusal = { readonly code: string; readonly declineCode: string | null; readonly message: string };

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

/** Stripe's answers when saving a card fails (SetupIntent `last_setup_error`). */
export const setupRefusals = {
  declined: (): CardRefusal => declineOf('generic_decline'),
  incorrectNumber: (): CardRefusal => ({
    code: 'incorrect_number',
    declineCode: null,
    message: 'Your card number is incorrect.',
  }),
  authenticationFailed: (): CardRefusal => ({
    code: 'setup_intent_authentication_failure',
    declineCode: null,
    message:
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  }),
} as const;
