import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';

/** Shown on the dashboard when there is no goal this week (§2); links to /goals. */
export function NoGoalCard() {
  return (
    <section className="card empty-card" aria-label="No active goal">
      <span className="empty-icon">
        <Icon name="target" size={24} />
      </span>
      <h2>No active goal</h2>
      <p className="muted">Set a weekly goal to start earning streaks and XP.</p>
      <Link to="/goals" className="button primary">
        Set a Goal
      </Link>
    </section>
  );
}
