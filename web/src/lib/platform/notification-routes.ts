import type { NotificationData } from './push.ts';

/** A path inside the app (never a scheme, nor `//host` or `/\\host`, which browsers read as another origin). */
function isAppPath(value: string | undefined): value is string {
  return value?.startsWith('/') === true && !value.startsWith('//') && !value.startsWith('/\\');
}

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
      return isAppPath(data.url) ? data.url : '/goals';
    default:
      return isAppPath(data.url) ? data.url : '/app';
  }
}
