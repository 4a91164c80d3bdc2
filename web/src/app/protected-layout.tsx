import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { AfterFirstPaint } from '../components/after-first-paint.tsx';
import { ScreenErrorBoundary } from '../components/screen-error-boundary.tsx';
import { InAppNotifications } from '../features/notifications/components/in-app-notifications.tsx';
import { TrackingBanner } from '../features/runs/components/tracking-banner.tsx';
import { BottomNav } from '../components/bottom-nav.tsx';
import { Spinner } from '../components/spinner.tsx';
import { useAuth } from '../lib/auth.tsx';
import { useDemoMode } from '../lib/demo-mode.ts';
import { platform } from '../lib/platform/index.ts';
import { noteSessionSeen, rememberReturnPath } from '../lib/return-path.ts';
import { RealtimeSync } from './realtime-sync.tsx';

/**
 * Signed-in pages (§6): a spinner while the session loads, then `/` (web) or /login (native) for anyone without a
 * session, else the page above the bottom navigation. Demo mode needs no sign-in.
 */
export function ProtectedLayout() {
  const { session, loading } = useAuth();
  const demo = useDemoMode();
  const { pathname, search, key } = useLocation();
  if (!demo && loading) return <Spinner />;
  // react-router keys the location the browser loaded 'default'; every navigation inside the app gets its own key.
  if (!demo && !session) return <SignedOut opened={`${pathname}${search}`} openedDirectly={key === 'default'} />;
  if (session) noteSessionSeen();
  return (
    <div className="app-shell">
      {demo ? <div className="demo-banner">Demo mode — sample data, nothing is saved to your account</div> : null}
      {/* Background work, no part of the first screen: from its second frame on. */}
      <AfterFirstPaint>
        {demo ? null : <RealtimeSync />}
        {demo || !session ? null : <InAppNotifications key={session.user.id} />}
      </AfterFirstPaint>
      <TrackingBanner />
      {/* The page's chunk loads under the banner and above the bottom navigation, which stay put, even when the page fails. */}
      <ScreenErrorBoundary resetKey={pathname}>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </ScreenErrorBoundary>
      <BottomNav />
    </div>
  );
}

/** Off to the signed-out start, remembering the page opened so that signing in lands on it (a vouch link). */
function SignedOut({ opened, openedDirectly }: { opened: string; openedDirectly: boolean }) {
  useEffect(
    () => rememberReturnPath(opened, window.location.origin, Date.now(), openedDirectly),
    [opened, openedDirectly],
  );
  return <Navigate to={platform().shell.signedOutRoute} replace />;
}
