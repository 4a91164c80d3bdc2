import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Group } from '../../../lib/api-types.ts';

/** GET /groups/{id}: the group with its members (404 'Group not found' for outsiders). */
export const getGroup = async (id: string): Promise<Group> =>
  (await api<DataEnvelope<Group>>(`/groups/${encodeURIComponent(id)}`)).data;

export const groupQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['groups', 'detail', id], queryFn: () => getGroup(id), retry: false });

export const useGroup = (id: string) => useQuery(groupQueryOptions(id));
