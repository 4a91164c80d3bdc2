import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Goal } from '../../../lib/api-types.ts';

/** GET /goals/current: this week's goal, or null. */
export const getCurrentGoal = async (): Promise<Goal | null> =>
  (await api<DataEnvelope<Goal | null>>('/goals/current')).data;

export const currentGoalQueryOptions = () => queryOptions({ queryKey: ['goals', 'current'], queryFn: getCurrentGoal });

export const useCurrentGoal = () => useQuery(currentGoalQueryOptions());
