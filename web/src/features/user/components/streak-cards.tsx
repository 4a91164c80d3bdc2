import { useStreak } from '../api/get-streak.ts';
import { Icon } from '../../../components/icon.tsx';

// A streak not (yet) read shows a dash: a failed read is never a streak of 0 weeks.
const weeks = (n: number | undefined) => (n === undefined ? '–' : `${n} ${n === 1 ? 'week' : 'weeks'}`);

/** Current streak and best streak, in weeks (§2). */
export function StreakCards() {
  const { data } = useStreak();
  return (
    <div className="stat-row">
      <section className="card stat">
        <span className="stat-icon flame">
          <Icon name="flame" />
        </span>
        <span className="muted small">Current streak</span>
        <strong>{weeks(data?.current_streak)}</strong>
      </section>
      <section className="card stat">
        <span className="stat-icon trophy">
          <Icon name="trophy" />
        </span>
        <span className="muted small">Best streak</span>
        <strong>{weeks(data?.longest_streak)}</strong>
      </section>
    </div>
  );
}
