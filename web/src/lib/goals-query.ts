import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import type { GoalHistoryItem } from './api-types.ts';

/** GET /goals?limit=100 (§7): the whole goal history, newest first. Shared by the goals and the runs features. */
export const getGoals = async (): Promise<GoalHistoryItem[]> =>
  (await api<{ goals: GoalHistoryItem[] }>('/goals?limit=100')).goals;

export const goalsQueryOptions = () => queryOptions({ queryKey: ['goals', 'list'], queryFn: getGoals });

export const useGoals = () => useQuery(goalsQueryOptions());
