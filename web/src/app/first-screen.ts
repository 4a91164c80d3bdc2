import { readySession } from '../lib/auth-client.ts';
import { isDemoMode } from '../lib/demo-mode.ts';
import { queryClient } from '../lib/query-client.ts';
import { currentGoalQueryOptions } from '../features/goals/api/get-current-goal.ts';
import { meQueryOptions } from '../features/user/api/get-me.ts';
import { preloadScreen } from './router.tsx';

/**
 * What the dashboard (routes/dashboard-route.tsx) shows first, and its first paint waits for: the runner's name and
 * the week's goal. The same reads app.html starts for /app (lib/first-requests.ts); its other cards ask for
 * themselves as they mount.
 */
function prefetchDashboard(): Promise<unknown> {
  return Promise.allSettled([
    queryClient.prefetchQuery(meQueryOptions()),
    queryClient.prefetchQuery(currentGoalQueryOptions()),
  ]);
}

/**
 * Starts the first screen's chunk and requests as the app opens, before its first render: otherwise the chunk waits
 * for the router to reach the route, and the requests for that chunk to render (the answers are often in already:
 * app.html asked as it loaded). Only for a signed-in runner whose session is ready (the requests need its token)
 * opening the dashboard; called once the platform's storage is installed (the session is read from it). Settles when
 * what the screen shows first is in (or failed); at once when there is nothing to wait for.
 */
export function prefetchFirstScreen(pathname: string): Promise<unknown> {
  if (pathname !== '/app' || isDemoMode() || readySession() === null) return Promise.resolve();
  preloadScreen(pathname);
  return prefetchDashboard();
}
