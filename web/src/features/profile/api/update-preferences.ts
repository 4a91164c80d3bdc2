import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Preferences } from '../../../lib/api-types.ts';

/** PUT /me/preferences with any subset (the unit modal sends the distance unit). */
export const updatePreferences = async (change: Partial<Preferences>): Promise<Preferences> =>
  (await api<DataEnvelope<Preferences>>('/me/preferences', { method: 'PUT', body: change })).data;

export function useUpdatePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    onSuccess: (data) => client.setQueryData(['preferences'], data),
  });
}
