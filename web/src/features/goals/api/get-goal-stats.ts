import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Goal, Run } from '../../../lib/api-types.ts';

export interface GoalStats {
  readonly goal: Goal;
  readonly stats: {
    readonly total_runs: number;
    readonly total_distance_km: number;
    readonly total_duration_sec: number;
    readonly average_pace_sec_per_km: number | null;
    readonly average_speed_kmh: number | null;
  } | null;
  readonly runs: readonly Run[];
  readonly milestone?: string | null;
}

/** GET /goals/{id}/stats. */
export const getGoalStats = (id: string): Promise<GoalStats> =>
  api<GoalStats>(`/goals/${encodeURIComponent(id)}/stats`);

export const goalStatsQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['goals', 'stats', id], queryFn: () => getGoalStats(id) });

export const useGoalStats = (id: string) => useQuery(goalStatsQueryOptions(id));
