import { PROVIDER_FALLBACK, SAVE_FAILED } from './components/payment-messages.ts';

/** Stripe's code when the cardholder failed (or abandoned) the authentication of a card being saved. */
export const AUTHENTICATION_FAILED = 'setup_intent_authentication_failure';

/**
 * What a card form got back from confirming its SetupIntent, whichever gateway answered: Stripe.js's
 * `confirmCardSetup` or the local gateway's route. Either the provider's error, or the SetupIntent's status and card.
 */
export type CardSetupResult =
  | { readonly error: { readonly message?: string | null | undefined; readonly code?: string | null | undefined } }
  | { readonly status: string; readonly paymentMethodId: string | null };

/** The card was saved (the wizard goes on with it), or the form shows `message` (and the provider's `detail`). */
export type CardSetupOutcome =
  | { readonly kind: 'saved'; readonly paymentMethodId: string }
  | { readonly kind: 'failed'; readonly message: string; readonly detail: string | null };

/**
 * The §8 payment-form rules, shared by both card forms: the provider's message ('An error occurred' when it has
 * none); 'Failed to save payment method' when the setup did not succeed, including a failed authentication (with
 * the bank's reason under it); the card only when the SetupIntent succeeded with one.
 */
export function cardSetupOutcome(result: CardSetupResult): CardSetupOutcome {
  if ('error' in result) {
    const provider = result.error.message?.trim() || null;
    if (result.error.code === AUTHENTICATION_FAILED) return { kind: 'failed', message: SAVE_FAILED, detail: provider };
    return { kind: 'failed', message: provider ?? PROVIDER_FALLBACK, detail: null };
  }
  if (result.status === 'succeeded' && result.paymentMethodId) {
    return { kind: 'saved', paymentMethodId: result.paymentMethodId };
  }
  return { kind: 'failed', message: SAVE_FAILED, detail: null };
}
