import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Goal } from '../../../lib/api-types.ts';

/** GET /goals/upcoming: next week's goal, or null (only one may exist, §4). */
export const getUpcomingGoal = async (): Promise<Goal | null> =>
  (await api<DataEnvelope<Goal | null>>('/goals/upcoming')).data;

export const upcomingGoalQueryOptions = () =>
  queryOptions({ queryKey: ['goals', 'upcoming'], queryFn: getUpcomingGoal });

export const useUpcomingGoal = () => useQuery(upcomingGoalQueryOptions());
