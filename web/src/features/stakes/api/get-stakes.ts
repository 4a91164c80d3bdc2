import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Stake } from '../../../lib/api-types.ts';

/** GET /stakes: the user's stakes with their display labels (§4). */
export const getStakes = async (): Promise<Stake[]> => (await api<{ stakes: Stake[] }>('/stakes')).stakes;

export const stakesQueryOptions = () => queryOptions({ queryKey: ['stakes'], queryFn: getStakes });

export const useStakes = () => useQuery(stakesQueryOptions());
