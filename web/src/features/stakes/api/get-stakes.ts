import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Stake } from '../../../lib/api-types.ts';
import { awaitsDecision } from '../appeal-words.ts';

/** How often the list is read again while an appeal or a refund waits, should the realtime stream be down. */
const WAITING_REFRESH_MS = 60_000;

/** GET /stakes: the user's stakes with their display labels (§4). */
export const getStakes = async (): Promise<Stake[]> => (await api<{ stakes: Stake[] }>('/stakes')).stakes;

export const stakesQueryOptions = () =>
  queryOptions({
    queryKey: ['stakes'],
    queryFn: getStakes,
    // The realtime stream announces a decision (its fallback polling covers stakes too, every 30 s); a stake whose
    // appeal or refund is still undecided is also read again now and then, should the stream miss the change.
    refetchInterval: (query) => (query.state.data?.some(awaitsDecision) ? WAITING_REFRESH_MS : false),
  });

export const useStakes = () => useQuery(stakesQueryOptions());
