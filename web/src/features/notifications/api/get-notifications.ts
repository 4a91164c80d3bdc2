import { api } from '../../../lib/api.ts';
import type { DataEnvelope } from '../../../lib/api-types.ts';

/** An in-app notification (§3 Notification): the payload carries what a tap needs (type, url, groupId). */
export interface AppNotification {
  readonly id: string;
  readonly type: string;
  readonly delivered_at: string;
  readonly payload: { readonly title: string; readonly message: string } & Readonly<Record<string, string>>;
}

/** GET /notifications?after=…: notifications delivered after `after` (all when null), oldest first. */
export async function getNotificationsAfter(after: string | null): Promise<AppNotification[]> {
  const query = after === null ? '' : `?after=${encodeURIComponent(after)}`;
  return (await api<DataEnvelope<AppNotification[]>>(`/notifications${query}`)).data;
}

/**
 * GET /notifications/history: the newest notifications, where the first check starts from. More than one, because
 * several can share the newest delivery instant and all of them were there before.
 */
export async function getNewestNotifications(): Promise<AppNotification[]> {
  return (await api<DataEnvelope<AppNotification[]>>('/notifications/history?limit=20')).data;
}
