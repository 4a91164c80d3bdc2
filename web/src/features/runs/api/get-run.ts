import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { RunWithTrack } from '../../../lib/api-types.ts';

/** GET /runs/{id}: one of the user's runs with its GPS track (thinned for drawing), for the run detail view. */
export const getRun = async (id: string): Promise<RunWithTrack> =>
  (await api<{ data: RunWithTrack }>(`/runs/${encodeURIComponent(id)}`)).data;

export const runQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['runs', 'one', id], queryFn: () => getRun(id) });

export const useRun = (id: string) => useQuery(runQueryOptions(id));
