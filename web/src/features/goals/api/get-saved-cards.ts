import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** A saved card as GET /api/payment/payment-methods lists it. */
export interface SavedCard {
  readonly id: string;
  readonly brand: string;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
}

/** GET /api/payment/payment-methods: the signed-in user's saved cards. */
export const getSavedCards = async (): Promise<SavedCard[]> =>
  (await api<{ paymentMethods: SavedCard[] }>('/api/payment/payment-methods')).paymentMethods;

export const savedCardsQueryOptions = () => queryOptions({ queryKey: ['payment-methods'], queryFn: getSavedCards });

export const useSavedCards = (enabled = true) => useQuery({ ...savedCardsQueryOptions(), enabled });

/** 'Visa •••• 4242'. */
export function cardLabel(card: Pick<SavedCard, 'brand' | 'last4'>): string {
  const brand = card.brand === 'amex' ? 'American Express' : card.brand.charAt(0).toUpperCase() + card.brand.slice(1);
  return `${brand} •••• ${card.last4}`;
}
