import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /stakes/{id}/receipt: a collected stake as its receipt shows it (amounts in cents, instants ISO). */
export interface StakeReceipt {
  readonly stake_id: string;
  readonly week_start: string;
  readonly status: string;
  readonly label: string;
  readonly captured_cents: number;
  readonly donation_amount_cents: number;
  readonly fee_cents: number;
  readonly refunded_cents: number;
  readonly charity: { readonly id: string; readonly name: string | null } | null;
  readonly captured_at: string | null;
  readonly refunded_at: string | null;
  readonly reason: string | null;
}

export const getReceipt = async (id: string): Promise<StakeReceipt> =>
  (await api<{ data: StakeReceipt }>(`/stakes/${encodeURIComponent(id)}/receipt`)).data;

export const receiptQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['stakes', 'receipt', id], queryFn: () => getReceipt(id) });

export const useReceipt = (id: string) => useQuery(receiptQueryOptions(id));
