import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Run } from '../../../lib/api-types.ts';
import { inStakeWeek, weekRunsSince } from '../appeal-words.ts';

/** The most runs GET /runs answers in one page. */
const PAGE = 100;

/** The runner's runs of a staked week (GET /runs?since=…, then the week's days in the goal's zone), newest first. */
export const getWeekRuns = async (weekStart: string, timeZone: string): Promise<Run[]> => {
  const since = encodeURIComponent(weekRunsSince(weekStart));
  const runs = (await api<{ data: Run[] }>(`/runs?limit=${PAGE}&since=${since}`)).data;
  return runs.filter((run) => inStakeWeek(run, weekStart, timeZone));
};

/** Under ['runs'], so an import (which invalidates the runs) lists the new run here too. */
export const useWeekRuns = (weekStart: string, timeZone: string) =>
  useQuery({
    queryKey: ['runs', 'stake-week', weekStart, timeZone],
    queryFn: () => getWeekRuns(weekStart, timeZone),
  });
