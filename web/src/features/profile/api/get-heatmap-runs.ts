import { queryOptions, useQuery } from '@tanstack/react-query';
import { HEATMAP_DAYS } from '../../../../../domain/stats/heatmap.ts';
import { api } from '../../../lib/api.ts';
import type { Run } from '../../../lib/api-types.ts';

/** GET /runs?since=…: the last 90 days of runs for the heatmap (§7). */
export async function getHeatmapRuns(): Promise<Run[]> {
  const since = new Date(Date.now() - (HEATMAP_DAYS + 1) * 86_400_000).toISOString();
  return (await api<{ data: Run[] }>(`/runs?limit=100&since=${encodeURIComponent(since)}`)).data;
}

export const heatmapRunsQueryOptions = () => queryOptions({ queryKey: ['runs', 'heatmap'], queryFn: getHeatmapRuns });

export const useHeatmapRuns = () => useQuery(heatmapRunsQueryOptions());
