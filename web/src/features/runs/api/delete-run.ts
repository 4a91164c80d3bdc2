import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** DELETE /runs/{id}. */
export const deleteRun = (id: string) => api<unknown>(`/runs/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteRun,
    onSuccess: () => {
      for (const key of ['runs', 'goals', 'xp', 'me', 'feed']) client.invalidateQueries({ queryKey: [key] });
    },
  });
}
