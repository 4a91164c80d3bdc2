import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { GoalPausesAnswer, WeekPause, WeekPauseReason } from '../../../lib/api-types.ts';

/** GET /goals/pauses (issue 25): the runner's paused weeks and the earliest week they may pause now. */
export const getWeekPauses = async (): Promise<GoalPausesAnswer> => api<GoalPausesAnswer>('/goals/pauses');

export const weekPausesQueryOptions = () => queryOptions({ queryKey: ['goals', 'pauses'], queryFn: getWeekPauses });

export const useWeekPauses = () => useQuery(weekPausesQueryOptions());

/** POST /goals/pauses: a refusal (inside the 7 days, a week with a goal) throws the server's sentence. */
export const pauseWeek = async (body: { week_start: string; reason: WeekPauseReason }): Promise<WeekPause> =>
  (await api<{ data: WeekPause }>('/goals/pauses', { method: 'POST', body })).data;

/** DELETE /goals/pauses/{week_start}, before the week begins. */
export const cancelWeekPause = async (weekStart: string): Promise<void> => {
  await api(`/goals/pauses/${encodeURIComponent(weekStart)}`, { method: 'DELETE' });
};

/** Pausing or un-pausing changes the goals screen and the streak: both are read again. */
function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['goals'] }),
        client.invalidateQueries({ queryKey: ['streak'] }),
      ]),
  });
}

export const usePauseWeek = () => useRefreshAfter(pauseWeek);
export const useCancelWeekPause = () => useRefreshAfter(cancelWeekPause);
