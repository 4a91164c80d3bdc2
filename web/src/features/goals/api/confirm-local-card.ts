import type { CardFields } from '../../../../../domain/validation/card-fields.ts';
import { api } from '../../../lib/api.ts';

/** The SetupIntent as the local gateway answers it (the fields Stripe.js's `confirmCardSetup` gives the form). */
export interface LocalSetupIntent {
  readonly id: string;
  readonly status: 'requires_payment_method' | 'requires_action' | 'succeeded';
  readonly payment_method: string | null;
  readonly next_action: { readonly type: 'local_authentication' } | null;
}

/**
 * POST /api/payment/local/setup-intent/confirm: the local gateway's stand-in for Stripe.js, with the form's four
 * fields as typed. A refused card throws an ApiError carrying Stripe's message and code (402); a field the server
 * finds wrong, its sentence (400).
 */
export const confirmLocalCard = async (clientSecret: string, card: CardFields): Promise<LocalSetupIntent> =>
  (
    await api<{ setupIntent: LocalSetupIntent }>('/api/payment/local/setup-intent/confirm', {
      method: 'POST',
      body: {
        client_secret: clientSecret,
        card_number: card.number,
        expiry: card.expiry,
        cvc: card.cvc,
        postal_code: card.postcode,
      },
    })
  ).setupIntent;

/** POST /api/payment/local/setup-intent/authenticate: the cardholder's answer on the local authentication step. */
export const authenticateLocalCard = async (clientSecret: string, approve: boolean): Promise<LocalSetupIntent> =>
  (
    await api<{ setupIntent: LocalSetupIntent }>('/api/payment/local/setup-intent/authenticate', {
      method: 'POST',
      body: { client_secret: clientSecret, outcome: approve ? 'approve' : 'fail' },
    })
  ).setupIntent;
