import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Group } from '../../../lib/api-types.ts';

/** POST /groups. */
export const createGroup = async (name: string): Promise<Group> =>
  (await api<DataEnvelope<Group>>('/groups', { method: 'POST', body: { name } })).data;

/** POST /groups/join. */
export const joinGroup = async (inviteCode: string): Promise<Group> =>
  (await api<DataEnvelope<Group>>('/groups/join', { method: 'POST', body: { invite_code: inviteCode } })).data;

/** POST /groups/{id}/leave. */
export const leaveGroup = (id: string) => api<unknown>(`/groups/${encodeURIComponent(id)}/leave`, { method: 'POST' });

function useGroupMutation<T>(fn: (arg: string) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: ['groups'] }) });
}

export const useCreateGroup = () => useGroupMutation(createGroup);
export const useJoinGroup = () => useGroupMutation(joinGroup);
export const useLeaveGroup = () => useGroupMutation(leaveGroup);
