import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** PATCH /auth/me with the time zone (§7 profile update). */
export const updateTimezone = (timezone: string) => api<unknown>('/auth/me', { method: 'PATCH', body: { timezone } });

export function useUpdateTimezone() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateTimezone, onSuccess: () => client.invalidateQueries({ queryKey: ['me'] }) });
}
