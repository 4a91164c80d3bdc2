import { Link } from 'react-router';
import type { GoalHistoryItem } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { goalTitle, progressText, weekLabel } from './goal-text.ts';

const PAST = new Set(['completed', 'missed', 'canceled']);
const STATUS_LABEL: Record<string, string> = { completed: 'Completed', missed: 'Missed', canceled: 'Canceled' };

/**
 * The last 10 completed, missed or canceled goals, each linking to its stats (§2, §9); `shownAbove` (this week's
 * goal, already on its own card once completed) is not listed a second time.
 */
export function PastGoals({
  goals,
  shownAbove,
}: {
  readonly goals: readonly GoalHistoryItem[];
  readonly shownAbove?: string | undefined;
}) {
  const unit = useDistanceUnit();
  const past = goals.filter((g) => PAST.has(g.status) && g.id !== shownAbove).slice(0, 10);
  if (past.length === 0) return null;
  return (
    <section className="card" aria-label="Past goals">
      <h2>Past Goals</h2>
      <ul className="list">
        {past.map((g) => (
          <li key={g.id}>
            <Link to={`/goals/${g.id}/stats`} className="list-row">
              <div>
                <strong>{goalTitle(g, unit)}</strong>
                <span className="muted small">
                  {weekLabel(g.period_start, g.period_end)} · {progressText(g, g.progress.current, unit)}
                </span>
              </div>
              <span className={`status status-${g.status}`}>{STATUS_LABEL[g.status]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
