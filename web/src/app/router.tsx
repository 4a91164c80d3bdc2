import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { ScreenErrorBoundary } from '../components/screen-error-boundary.tsx';
import { Spinner } from '../components/spinner.tsx';
import { AppStoreBanner } from '../features/app-store-prompt/components/app-store-banner.tsx';
import { OfflineRunSync } from '../features/runs/offline/components/offline-run-sync.tsx';
import { PlatformEffects } from '../lib/platform/platform-effects.tsx';
import { ProtectedLayout } from './protected-layout.tsx';

// One chunk per screen: the first load carries only the shell and the page asked for.
const LandingRoute = lazy(() => import('./routes/auth-routes.tsx').then((m) => ({ default: m.LandingRoute })));
const LoginRoute = lazy(() => import('./routes/auth-routes.tsx').then((m) => ({ default: m.LoginRoute })));
const SignupRoute = lazy(() => import('./routes/auth-routes.tsx').then((m) => ({ default: m.SignupRoute })));
const TermsRoute = lazy(() => import('./routes/legal-routes.tsx').then((m) => ({ default: m.TermsRoute })));
const PrivacyRoute = lazy(() => import('./routes/legal-routes.tsx').then((m) => ({ default: m.PrivacyRoute })));
const DataDeletionRoute = lazy(() =>
  import('./routes/legal-routes.tsx').then((m) => ({ default: m.DataDeletionRoute })),
);
const DashboardRoute = lazy(() => import('./routes/dashboard-route.tsx').then((m) => ({ default: m.DashboardRoute })));
const RunRoute = lazy(() => import('./routes/run-route.tsx').then((m) => ({ default: m.RunRoute })));
const RunHistoryRoute = lazy(() =>
  import('./routes/run-history-route.tsx').then((m) => ({ default: m.RunHistoryRoute })),
);
const RunDetailRoute = lazy(() => import('./routes/run-detail-route.tsx').then((m) => ({ default: m.RunDetailRoute })));
const GoalsRoute = lazy(() => import('./routes/goals-route.tsx').then((m) => ({ default: m.GoalsRoute })));
const GoalStatsRoute = lazy(() => import('./routes/goal-stats-route.tsx').then((m) => ({ default: m.GoalStatsRoute })));
const GroupsRoute = lazy(() => import('./routes/groups-route.tsx').then((m) => ({ default: m.GroupsRoute })));
const GroupDetailRoute = lazy(() =>
  import('./routes/group-detail-route.tsx').then((m) => ({ default: m.GroupDetailRoute })),
);
const ProfileRoute = lazy(() => import('./routes/profile-route.tsx').then((m) => ({ default: m.ProfileRoute })));
const ConnectedAppsRoute = lazy(() =>
  import('./routes/connected-apps-route.tsx').then((m) => ({ default: m.ConnectedAppsRoute })),
);
const XpGuideRoute = lazy(() => import('./routes/xp-guide-route.tsx').then((m) => ({ default: m.XpGuideRoute })));

/** The route table of §2; any other path goes to /app. The router itself is main.tsx's (the landing shares it). */
export function AppRouter() {
  const { pathname } = useLocation();
  return (
    <>
      <PlatformEffects />
      <OfflineRunSync />
      <AppStoreBanner />
      <ScreenErrorBoundary resetKey={pathname}>
        <Suspense fallback={<Spinner />}>
          <Routes>
            <Route path="/" element={<LandingRoute />} />
            <Route path="/login" element={<LoginRoute />} />
            <Route path="/signup" element={<SignupRoute />} />
            <Route path="/terms" element={<TermsRoute />} />
            <Route path="/privacy" element={<PrivacyRoute />} />
            <Route path="/data-deletion" element={<DataDeletionRoute />} />
            <Route element={<ProtectedLayout />}>
              <Route path="/app" element={<DashboardRoute />} />
              <Route path="/run" element={<RunRoute />} />
              <Route path="/run-history" element={<RunHistoryRoute />} />
              <Route path="/runs/:id" element={<RunDetailRoute />} />
              <Route path="/goals" element={<GoalsRoute />} />
              <Route path="/goals/:id/stats" element={<GoalStatsRoute />} />
              <Route path="/groups" element={<GroupsRoute />} />
              <Route path="/groups/:groupId" element={<GroupDetailRoute />} />
              <Route path="/profile" element={<ProfileRoute />} />
              <Route path="/connected-apps" element={<ConnectedAppsRoute />} />
              <Route path="/xp-guide" element={<XpGuideRoute />} />
            </Route>
            <Route path="*" element={<Navigate to="/app" replace />} />
          </Routes>
        </Suspense>
      </ScreenErrorBoundary>
    </>
  );
}
