import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Run } from '../../../lib/api-types.ts';

/** GET /runs?limit=…: the user's runs, newest first (5 on /run, 100 on history, §9). */
export const getRuns = async (limit: number): Promise<Run[]> =>
  (await api<{ data: Run[] }>(`/runs?limit=${limit}`)).data;

export const runsQueryOptions = (limit: number) =>
  queryOptions({ queryKey: ['runs', 'list', limit], queryFn: () => getRuns(limit) });

export const useRuns = (limit: number) => useQuery(runsQueryOptions(limit));
