import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope } from '../../../lib/api-types.ts';

/** What a manual sync imported. */
export interface SyncResult {
  readonly imported: number;
  readonly activities: number;
  readonly last_sync_at: string | null;
}

/** POST /api/integrations/{provider}/sync: imports what is new since the last sync. */
export const syncConnection = async (provider: string): Promise<SyncResult> =>
  (await api<DataEnvelope<SyncResult>>(`/api/integrations/${encodeURIComponent(provider)}/sync`, { method: 'POST' }))
    .data;

/** DELETE /api/integrations/{provider}/disconnect: revokes the service's access; imported runs stay. */
export const disconnectConnection = (provider: string) =>
  api<unknown>(`/api/integrations/${encodeURIComponent(provider)}/disconnect`, { method: 'DELETE' });

function useConnectionMutation<T>(fn: (provider: string) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Imports change runs, goals, XP and the feed as well as the connection's last sync.
    onSettled: () => {
      for (const key of ['connections', 'runs', 'goals', 'xp', 'feed']) client.invalidateQueries({ queryKey: [key] });
    },
  });
}

export const useSyncConnection = () => useConnectionMutation(syncConnection);
export const useDisconnectConnection = () => useConnectionMutation(disconnectConnection);
