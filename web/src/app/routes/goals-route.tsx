import { useState } from 'react';
import { Page } from '../../components/page.tsx';
import { useCancelGoal } from '../../features/goals/api/cancel-goal.ts';
import { useCurrentGoal } from '../../features/goals/api/get-current-goal.ts';
import { useGoals } from '../../features/goals/api/get-goals.ts';
import { useUpcomingGoal } from '../../features/goals/api/get-upcoming-goal.ts';
import { CreateGoalWizard } from '../../features/goals/components/create-goal-wizard.tsx';
import { GoalProgressCard } from '../../features/goals/components/goal-progress-card.tsx';
import { GoalHoldDeadline } from '../../features/stakes/components/goal-hold-deadline.tsx';
import { useMe } from '../../features/user/api/get-me.ts';
import { DEFAULT_TIME_ZONE } from '../../../../domain/shared/time-zone.ts';
import { PastGoals } from '../../features/goals/components/past-goals.tsx';
import { UpcomingGoalCard } from '../../features/goals/components/upcoming-goal-card.tsx';
import { WeekPauses } from '../../features/goals/components/week-pauses.tsx';
import { Modal } from '../../components/modal.tsx';
import type { Goal } from '../../lib/api-types.ts';
import { formatDollars } from '../../../../domain/shared/money.ts';
import { Icon } from '../../components/icon.tsx';
import { LoadError } from '../../components/load-error.tsx';

/**
 * What canceling costs, as the server does it (README "Money"): an upcoming goal holds nothing yet, so canceling it
 * forfeits nothing; canceling a staked goal whose week has started forfeits the stake.
 */
function cancelText(goal: Goal): string {
  if (goal.stake_amount_cents === 0) return 'This goal will be marked as canceled.';
  const stake = formatDollars(goal.stake_amount_cents);
  if (goal.status === 'upcoming') {
    return `Nothing is held on your card yet, so canceling this upcoming goal forfeits nothing: your ${stake} stake is dropped.`;
  }
  const split = goal.charity_id
    ? '80% to your charity, 20% service fee'
    : 'kept as a service fee, as no charity was chosen';
  return `Canceling now forfeits your ${stake} stake: it is taken from your card (${split}).`;
}

/** Goals (§2 /goals): active and upcoming cards, the plan/new button, the empty state, past goals, cancel. */
export function GoalsRoute() {
  const me = useMe();
  const current = useCurrentGoal();
  const upcoming = useUpcomingGoal();
  const goals = useGoals();
  const cancel = useCancelGoal();
  const [wizard, setWizard] = useState<'this_week' | 'next_week' | null>(null);
  const [confirming, setConfirming] = useState<Goal | null>(null);
  const refresh = () => Promise.all([current.refetch(), upcoming.refetch(), goals.refetch()]);
  const hasCurrent = Boolean(current.data && current.data.status === 'active');
  const loading = current.isPending || upcoming.isPending;

  return (
    <Page
      title="Goals"
      actions={
        <button type="button" className="button ghost small" onClick={refresh} aria-label="Refresh">
          ↻ Refresh
        </button>
      }
    >
      {loading ? <section className="card skeleton" aria-busy="true" /> : null}
      {current.data ? (
        <GoalProgressCard goal={current.data} onCancel={hasCurrent ? () => setConfirming(current.data) : undefined}>
          <GoalHoldDeadline goalId={current.data.id} timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE} />
        </GoalProgressCard>
      ) : null}
      {current.isError ? (
        <section className="card">
          <LoadError what="your goal" onRetry={() => void current.refetch()} />
        </section>
      ) : null}
      {/* "No active goal" only when the server said so, never for a read that failed or is still under way. */}
      {current.isSuccess && !current.data ? (
        <section className="card empty-card">
          <span className="empty-icon">
            <Icon name="target" size={24} />
          </span>
          <h2>No active goal for this week</h2>
          <p className="muted">Pick a distance or a number of runs, and decide what’s at stake.</p>
          <button type="button" className="button primary" onClick={() => setWizard('this_week')}>
            Create Your First Goal
          </button>
        </section>
      ) : null}
      {upcoming.data ? <UpcomingGoalCard goal={upcoming.data} onCancel={() => setConfirming(upcoming.data)} /> : null}
      {current.isSuccess && upcoming.isSuccess && !upcoming.data ? (
        <button
          type="button"
          className="button secondary block"
          onClick={() => setWizard(current.data ? 'next_week' : 'this_week')}
        >
          {current.data ? 'Plan Next Week' : 'New Goal'}
        </button>
      ) : null}
      <WeekPauses timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE} />
      <PastGoals goals={goals.data ?? []} shownAbove={current.data?.id} />
      {wizard ? <CreateGoalWizard start={wizard} onClose={() => setWizard(null)} /> : null}
      {confirming ? (
        <Modal
          title={confirming.status === 'upcoming' ? 'Cancel upcoming goal?' : 'Cancel this goal?'}
          onClose={() => setConfirming(null)}
          footer={
            <>
              <button type="button" className="button ghost" onClick={() => setConfirming(null)}>
                Keep Goal
              </button>
              <button
                type="button"
                className="button danger"
                onClick={() => {
                  cancel.mutate(confirming.id);
                  setConfirming(null);
                }}
              >
                Yes, Cancel Goal
              </button>
            </>
          }
        >
          <p>{cancelText(confirming)}</p>
        </Modal>
      ) : null}
    </Page>
  );
}
