import { Link, useParams } from 'react-router';
import { formatDistance, formatSpeed } from '../../../../domain/shared/units.ts';
import { Page } from '../../components/page.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { useGoalStats } from '../../features/goals/api/get-goal-stats.ts';
import { figuresOfRun } from '../../features/runs/track/figures-of-run.ts';
import { errorMessage } from '../../lib/api-error.ts';
import { useDistanceUnit } from '../../lib/distance-unit.ts';
import { formatDateTime, formatDuration, formatPace, weekOf } from '../../lib/format.ts';

/** Goal statistics (§2): totals, pace and speed, achievement, the milestone text and the week's runs. */
export function GoalStatsRoute() {
  const { id = '' } = useParams();
  const unit = useDistanceUnit();
  const { data, isPending, error } = useGoalStats(id);
  if (isPending) return <Spinner />;
  if (error || !data) {
    return (
      <Page title="Goal Stats" back="/goals">
        <p className="field-error" role="alert">
          {errorMessage(error, 'Failed to load stats')}
        </p>
      </Page>
    );
  }
  const s = data.stats;
  return (
    <Page title="Goal Stats" back="/goals">
      <section className="card">
        <p className="eyebrow">
          {weekOf(data.goal.period_start)} · {data.goal.status}
        </p>
        <h2>{data.goal.percentage}% of goal</h2>
        {data.milestone ? <p className="motivation">{data.milestone}</p> : null}
      </section>
      {s ? (
        <div className="stat-grid">
          <div className="card stat">
            <span className="muted small">Total runs</span>
            <strong>{s.total_runs}</strong>
          </div>
          <div className="card stat">
            <span className="muted small">Distance</span>
            <strong>{formatDistance(s.total_distance_km, unit)}</strong>
          </div>
          <div className="card stat">
            <span className="muted small">Total time</span>
            <strong>{formatDuration(s.total_duration_sec)}</strong>
          </div>
          <div className="card stat">
            <span className="muted small">Average pace</span>
            <strong>{formatPace(s.average_pace_sec_per_km, unit)}</strong>
          </div>
          <div className="card stat">
            <span className="muted small">Average speed</span>
            <strong>{formatSpeed(s.average_speed_kmh, unit)}</strong>
          </div>
        </div>
      ) : null}
      <section className="card">
        <h2>Runs this week</h2>
        {data.runs.length === 0 ? <p className="muted">No runs in this week.</p> : null}
        <ul className="list">
          {data.runs.map((r) => (
            <li key={r.id} className="list-row">
              <Link to={`/runs/${encodeURIComponent(r.id)}`}>{formatDateTime(r.started_at).date}</Link>
              <span>{formatDistance(figuresOfRun(r).distanceKm, unit)}</span>
              <span className="muted">{formatDuration(r.duration_sec)}</span>
            </li>
          ))}
        </ul>
      </section>
    </Page>
  );
}
