import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Group } from '../../../lib/api-types.ts';

/** GET /groups: the groups the user belongs to. */
export const getGroups = async (): Promise<Group[]> => (await api<{ groups: Group[] }>('/groups')).groups;

export const groupsQueryOptions = () => queryOptions({ queryKey: ['groups', 'list'], queryFn: getGroups });

export const useGroups = () => useQuery(groupsQueryOptions());
