import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Celebrations } from '../../features/celebrations/components/celebrations.tsx';
import { ActivityFeed } from '../../features/feed/components/activity-feed.tsx';
import { useCurrentGoal } from '../../features/goals/api/get-current-goal.ts';
import { useUpcomingGoal } from '../../features/goals/api/get-upcoming-goal.ts';
import { GoalProgressCard } from '../../features/goals/components/goal-progress-card.tsx';
import { GoalHoldDeadline } from '../../features/stakes/components/goal-hold-deadline.tsx';
import { OnboardingTour } from '../../features/onboarding/components/onboarding-tour.tsx';
import { NoGoalCard } from '../../features/goals/components/no-goal-card.tsx';
import { UpcomingGoalCard } from '../../features/goals/components/upcoming-goal-card.tsx';
import { SurgeBanner } from '../../features/surge/components/surge-banner.tsx';
import { useMe } from '../../features/user/api/get-me.ts';
import { GreetingCard } from '../../features/user/components/greeting-card.tsx';
import { StreakCards } from '../../features/user/components/streak-cards.tsx';
import { AfterFirstPaint } from '../../components/after-first-paint.tsx';
import { Icon } from '../../components/icon.tsx';
import { LoadError } from '../../components/load-error.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { DEFAULT_TIME_ZONE } from '../../../../domain/shared/time-zone.ts';

/** The dashboard (§2 /app). */
export function DashboardRoute() {
  useDocumentTitle('Home');
  const me = useMe();
  const current = useCurrentGoal();
  const upcoming = useUpcomingGoal();
  // Celebrations wait for the tour so two dialogs never stack.
  const [tourDone, setTourDone] = useState(false);
  const onTourDone = useCallback(() => setTourDone(true), []);
  return (
    <main className="page dashboard">
      <GreetingCard />
      <SurgeBanner />
      <StreakCards />
      {/* No goal is said only when the server said so: a failed or unfinished read is never shown as "no goal". */}
      {current.isPending ? (
        <section className="card skeleton" aria-busy="true" />
      ) : current.isError ? (
        <section className="card">
          <LoadError what="your goal" onRetry={() => void current.refetch()} />
        </section>
      ) : current.data ? (
        <GoalProgressCard goal={current.data}>
          <GoalHoldDeadline goalId={current.data.id} timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE} />
        </GoalProgressCard>
      ) : (
        <NoGoalCard />
      )}
      {upcoming.data ? <UpcomingGoalCard goal={upcoming.data} /> : null}
      {/* The feed starts below the fold and the pop-ups wait anyway: from the second frame on. */}
      <AfterFirstPaint>
        <ActivityFeed timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE} />
      </AfterFirstPaint>
      <Link to="/run" className="fab" aria-label="Start a run">
        <Icon name="play" size={24} />
      </Link>
      <AfterFirstPaint>
        <OnboardingTour onDone={onTourDone} />
        <Celebrations goal={current.data} enabled={tourDone} />
      </AfterFirstPaint>
    </main>
  );
}
