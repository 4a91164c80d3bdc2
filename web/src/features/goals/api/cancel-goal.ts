import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Goal } from '../../../lib/api-types.ts';

/** PATCH /goals/{id} with status canceled (§7). */
export const cancelGoal = async (id: string): Promise<Goal> =>
  (await api<DataEnvelope<Goal>>(`/goals/${encodeURIComponent(id)}`, { method: 'PATCH', body: { status: 'canceled' } }))
    .data;

/** Cancels with an optimistic update and rollback on error (§4); failures are only logged (§8). */
export function useCancelGoal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelGoal,
    onMutate: async (id: string) => {
      await client.cancelQueries({ queryKey: ['goals'] });
      const current = client.getQueryData<Goal | null>(['goals', 'current']);
      const upcoming = client.getQueryData<Goal | null>(['goals', 'upcoming']);
      if (current?.id === id) client.setQueryData(['goals', 'current'], null);
      if (upcoming?.id === id) client.setQueryData(['goals', 'upcoming'], null);
      return { current, upcoming };
    },
    onError: (error, _id, context) => {
      console.error('Failed to cancel goal', error);
      client.setQueryData(['goals', 'current'], context?.current ?? null);
      client.setQueryData(['goals', 'upcoming'], context?.upcoming ?? null);
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['goals'] }),
  });
}
