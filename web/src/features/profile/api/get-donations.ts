import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Stake } from '../../../lib/api-types.ts';

/** GET /stakes?status=lost&has_charity=true: the missed stakes that went to a charity (§2 donation impact card). */
export const getDonations = async (): Promise<Stake[]> =>
  (await api<{ stakes: Stake[] }>('/stakes?status=lost&has_charity=true')).stakes;

export const donationsQueryOptions = () => queryOptions({ queryKey: ['stakes', 'donations'], queryFn: getDonations });

export const useDonations = (enabled: boolean) => useQuery({ ...donationsQueryOptions(), enabled });
