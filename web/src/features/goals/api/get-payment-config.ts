import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Which card form to show: Stripe Elements with this key, the local gateway's test cards, or none configured. */
export interface PaymentConfig {
  readonly publishableKey: string | null;
  readonly gateway: 'stripe' | 'local' | null;
}

/** GET /api/payment/config (public). */
export const getPaymentConfig = () => api<PaymentConfig>('/api/payment/config');

export const paymentConfigQueryOptions = () =>
  queryOptions({ queryKey: ['payment-config'], queryFn: getPaymentConfig, staleTime: Number.POSITIVE_INFINITY });

export const usePaymentConfig = () => useQuery(paymentConfigQueryOptions());
