import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDollars } from '../../../../../domain/shared/money.ts';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import type { Goal } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { goalTitle, progressText } from './goal-text.ts';

/**
 * This week's goal (§2): progress, percentage, motivational message, stake; cancel where the page allows it. The card
 * leads to the goal's stats (/goals/:id/stats): its head is the link, the Cancel button stays a button of its own.
 */
export function GoalProgressCard({
  goal,
  onCancel,
  children,
}: {
  readonly goal: Goal;
  readonly onCancel?: () => void;
  /** What the page shows of the goal's stake under the message (the hold's capture deadline). */
  readonly children?: ReactNode;
}) {
  const unit = useDistanceUnit();
  return (
    <section className="card goal-card" aria-label="This week's goal">
      <Link to={`/goals/${goal.id}/stats`} className="goal-card-head goal-card-link">
        <div>
          <p className="eyebrow">This week’s goal</p>
          <h2>{goalTitle(goal, unit)}</h2>
        </div>
        <span className="percentage">{goal.percentage}%</span>
      </Link>
      <ProgressBar fraction={goal.percentage / 100} label="Goal progress" />
      <p className="goal-progress-line">
        <span>{progressText(goal, goal.progress, unit)}</span>
        {goal.days_left !== null ? (
          <span className="muted">{goal.days_left <= 1 ? 'Last day!' : `${goal.days_left} days left`}</span>
        ) : null}
      </p>
      <p className="motivation">{goal.message}</p>
      {goal.stake_amount_cents > 0 ? children : null}
      <div className="goal-card-foot">
        <span className={goal.stake_amount_cents > 0 ? 'stake-chip' : 'stake-chip free'}>
          {goal.stake_amount_cents > 0 ? `${formatDollars(goal.stake_amount_cents)} at stake` : 'Free goal'}
        </span>
        {onCancel ? (
          <button type="button" className="button ghost small danger" onClick={onCancel}>
            Cancel Goal
          </button>
        ) : null}
      </div>
    </section>
  );
}
