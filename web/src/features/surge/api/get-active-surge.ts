import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Surge } from '../../../lib/api-types.ts';

/** GET /surge/active: the running surge, or null; refetched every 60 s (§9). */
export const getActiveSurge = async (): Promise<Surge | null> =>
  (await api<DataEnvelope<Surge | null>>('/surge/active')).data;

export const activeSurgeQueryOptions = () =>
  queryOptions({ queryKey: ['surge', 'active'], queryFn: getActiveSurge, refetchInterval: 60_000 });

export const useActiveSurge = () => useQuery(activeSurgeQueryOptions());
