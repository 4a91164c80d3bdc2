import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { PlatformEffects } from '../lib/platform/platform-effects.tsx';
import { ProtectedLayout } from './protected-layout.tsx';
import { LandingRoute, LoginRoute, SignupRoute } from './routes/auth-routes.tsx';
import { ConnectedAppsRoute } from './routes/connected-apps-route.tsx';
import { DashboardRoute } from './routes/dashboard-route.tsx';
import { GoalStatsRoute } from './routes/goal-stats-route.tsx';
import { GoalsRoute } from './routes/goals-route.tsx';
import { GroupDetailRoute } from './routes/group-detail-route.tsx';
import { GroupsRoute } from './routes/groups-route.tsx';
import { DataDeletionRoute, PrivacyRoute, TermsRoute } from './routes/legal-routes.tsx';
import { ProfileRoute } from './routes/profile-route.tsx';
import { RunHistoryRoute } from './routes/run-history-route.tsx';
import { RunRoute } from './routes/run-route.tsx';
import { XpGuideRoute } from './routes/xp-guide-route.tsx';

/** The route table of §2; any other path goes to /app. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <PlatformEffects />
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
    </BrowserRouter>
  );
}
