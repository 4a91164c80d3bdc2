import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Group } from '../../../lib/api-types.ts';

/** Pages read at most: a user is in at most 20 groups (one page of 50); the bound only stops a runaway loop. */
const MAX_PAGES = 10;

/** GET /groups: the groups the user belongs to, every page (newest membership first). */
export const getGroups = async (): Promise<Group[]> => {
  const groups: Group[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: string = cursor ? `?limit=50&cursor=${encodeURIComponent(cursor)}` : '?limit=50';
    const answer: { groups: Group[]; next_cursor?: string | null } = await api(`/groups${query}`);
    groups.push(...answer.groups);
    cursor = answer.next_cursor ?? null;
    if (!cursor) break;
  }
  return groups;
};

export const groupsQueryOptions = () => queryOptions({ queryKey: ['groups', 'list'], queryFn: getGroups });

export const useGroups = () => useQuery(groupsQueryOptions());
