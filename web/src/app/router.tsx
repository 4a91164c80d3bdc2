import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { ScreenErrorBoundary } from '../components/screen-error-boundary.tsx';
import { Spinner } from '../components/spinner.tsx';
import { AppStoreBanner } from '../features/app-store-prompt/components/app-store-banner.tsx';
import { OfflineRunSync } from '../features/runs/offline/components/offline-run-sync.tsx';
import { PlatformEffects } from '../lib/platform/platform-effects.tsx';
import { lazyScreen } from './lazy-screen.tsx';
import { ProtectedLayout } from './protected-layout.tsx';

// One chunk per screen: the first load carries only the shell and the page asked for.
const LandingRoute = lazyScreen(() => import('./routes/auth-routes.tsx').then((m) => m.LandingRoute));
const LoginRoute = lazyScreen(() => import('./routes/auth-routes.tsx').then((m) => m.LoginRoute));
const SignupRoute = lazyScreen(() => import('./routes/auth-routes.tsx').then((m) => m.SignupRoute));
const ForgotPasswordRoute = lazyScreen(() => import('./routes/auth-routes.tsx').then((m) => m.ForgotPasswordRoute));
const ResetPasswordRoute = lazyScreen(() => import('./routes/auth-routes.tsx').then((m) => m.ResetPasswordRoute));
const TermsRoute = lazyScreen(() => import('./routes/legal-routes.tsx').then((m) => m.TermsRoute));
const PrivacyRoute = lazyScreen(() => import('./routes/legal-routes.tsx').then((m) => m.PrivacyRoute));
const DataDeletionRoute = lazyScreen(() => import('./routes/legal-routes.tsx').then((m) => m.DataDeletionRoute));
const DashboardRoute = lazyScreen(() => import('./routes/dashboard-route.tsx').then((m) => m.DashboardRoute));
const RunRoute = lazyScreen(() => import('./routes/run-route.tsx').then((m) => m.RunRoute));
const RunHistoryRoute = lazyScreen(() => import('./routes/run-history-route.tsx').then((m) => m.RunHistoryRoute));
const RunDetailRoute = lazyScreen(() => import('./routes/run-detail-route.tsx').then((m) => m.RunDetailRoute));
const GoalsRoute = lazyScreen(() => import('./routes/goals-route.tsx').then((m) => m.GoalsRoute));
const GoalStatsRoute = lazyScreen(() => import('./routes/goal-stats-route.tsx').then((m) => m.GoalStatsRoute));
const GroupsRoute = lazyScreen(() => import('./routes/groups-route.tsx').then((m) => m.GroupsRoute));
const GroupDetailRoute = lazyScreen(() => import('./routes/group-detail-route.tsx').then((m) => m.GroupDetailRoute));
const ProfileRoute = lazyScreen(() => import('./routes/profile-route.tsx').then((m) => m.ProfileRoute));
const ConnectedAppsRoute = lazyScreen(() =>
  import('./routes/connected-apps-route.tsx').then((m) => m.ConnectedAppsRoute),
);
const ReceiptRoute = lazyScreen(() => import('./routes/receipt-route.tsx').then((m) => m.ReceiptRoute));
const VouchRoute = lazyScreen(() => import('./routes/vouch-route.tsx').then((m) => m.VouchRoute));
const XpGuideRoute = lazyScreen(() => import('./routes/xp-guide-route.tsx').then((m) => m.XpGuideRoute));

/** Starts loading the screen of `pathname` ahead of the router (app/first-screen.ts): the dashboard, where the app opens. */
export function preloadScreen(pathname: string): void {
  // A chunk that fails to load fails the screen's render too, which shows it (ScreenErrorBoundary).
  if (pathname === '/app') DashboardRoute.preload().catch(() => {});
}

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
            <Route path="/forgot-password" element={<ForgotPasswordRoute />} />
            <Route path="/reset-password" element={<ResetPasswordRoute />} />
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
              <Route path="/stakes/:id/receipt" element={<ReceiptRoute />} />
              <Route path="/vouch/:stakeId" element={<VouchRoute />} />
            </Route>
            <Route path="*" element={<Navigate to="/app" replace />} />
          </Routes>
        </Suspense>
      </ScreenErrorBoundary>
    </>
  );
}
