import { api } from '../../../lib/api.ts';

/** §8: a setup intent without a client secret cannot be used. */
export const PAYMENT_INIT_FAILED = 'Failed to initialize payment. Please try again.';

/** POST /api/payment/setup-intent: the client secret the card form confirms. */
export async function createSetupIntent(): Promise<{ clientSecret: string; setupIntentId: string | null }> {
  const answer = await api<{ clientSecret?: string | null; setupIntentId?: string }>('/api/payment/setup-intent', {
    method: 'POST',
  });
  if (!answer.clientSecret) throw new Error(PAYMENT_INIT_FAILED);
  return { clientSecret: answer.clientSecret, setupIntentId: answer.setupIntentId ?? null };
}
