import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope } from '../../../lib/api-types.ts';

/** §3 notification preferences; times of day are stored with seconds ('18:00:00'). */
export interface NotificationPreferences {
  readonly upcoming_goal_enabled: boolean;
  readonly midweek_update_enabled: boolean;
  readonly ending_soon_enabled: boolean;
  readonly upcoming_goal_time: string;
  readonly midweek_update_time: string;
  readonly ending_soon_time: string;
}

/** GET /me/notification-preferences. */
export const getNotificationPreferences = async (): Promise<NotificationPreferences> =>
  (await api<DataEnvelope<NotificationPreferences>>('/me/notification-preferences')).data;

export const notificationPreferencesQueryOptions = () =>
  queryOptions({ queryKey: ['notification-preferences'], queryFn: getNotificationPreferences });

export const useNotificationPreferences = () => useQuery(notificationPreferencesQueryOptions());

/** PUT /me/notification-preferences with the whole form. */
export const updateNotificationPreferences = async (next: NotificationPreferences): Promise<NotificationPreferences> =>
  (await api<DataEnvelope<NotificationPreferences>>('/me/notification-preferences', { method: 'PUT', body: next }))
    .data;

export function useUpdateNotificationPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (data) => client.setQueryData(['notification-preferences'], data),
  });
}
