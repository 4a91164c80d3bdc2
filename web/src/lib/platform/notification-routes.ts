import { inAppPath } from '../return-path.ts';
import type { NotificationData } from './push.ts';

/**
 * Where a tapped notification goes (§2): upcoming_goal → /goals, midweek_update → /profile?tab=stakes,
 * ending_soon → /groups/{groupId}. An ending_soon for a runner in no group, or a type this build does not know,
 * follows the in-app path the server put in `url`, else the dashboard.
 */
export function routeForNotification(data: NotificationData): string {
  switch (data.type) {
    case 'upcoming_goal':
      return '/goals';
    case 'midweek_update':
      return '/profile?tab=stakes';
    case 'ending_soon':
      if (data.groupId) return `/groups/${encodeURIComponent(data.groupId)}`;
      return inAppPath(data.url) ?? '/goals';
    default:
      return inAppPath(data.url) ?? '/app';
  }
}
