import { useStreak } from '../api/get-streak.ts';
import { Icon } from '../../../components/icon.tsx';

const weeks = (n: number) => `${n} ${n === 1 ? 'week' : 'weeks'}`;

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
        <strong>{weeks(data?.current_streak ?? 0)}</strong>
      </section>
      <section className="card stat">
        <span className="stat-icon trophy">
          <Icon name="trophy" />
        </span>
        <span className="muted small">Best streak</span>
        <strong>{weeks(data?.longest_streak ?? 0)}</strong>
      </section>
    </div>
  );
}
