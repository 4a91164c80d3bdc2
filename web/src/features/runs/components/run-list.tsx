import { Link } from 'react-router';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { Icon } from '../../../components/icon.tsx';
import type { Run } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDateTime, formatDuration, formatPace } from '../../../lib/format.ts';
import { useRunXp } from '../api/get-run-xp.ts';
import { figuresOfRun } from '../track/figures-of-run.ts';
import { sourceLabel, trackOfRun } from '../track/run-track.ts';
import { RouteMap } from './route-map.tsx';
import { RunVerdict } from './run-verdict.tsx';

/**
 * Runs with a route thumbnail, date, time, source badge, distance, duration, pace, the XP each earned with its
 * Surge Bonus mark (§2 run history), and what the run policy counted toward a stake; each opens its detail
 * (/runs/{id}); delete when given.
 */
export function RunList({
  runs,
  onDelete,
  onRunTab = false,
}: {
  readonly runs: readonly Run[];
  readonly onDelete?: (id: string) => void;
  /** Shown on the Run tab itself, where the Start Run button is just above. */
  readonly onRunTab?: boolean;
}) {
  const unit = useDistanceUnit();
  const xp = useRunXp(runs.map((r) => r.id));
  if (runs.length === 0) {
    return (
      <div className="runs-empty">
        <span className="empty-icon">
          <Icon name="run" size={24} />
        </span>
        <p>No runs yet</p>
        <p className="muted small">
          {onRunTab
            ? 'Tap Start Run above, or connect Strava to bring your runs in.'
            : 'Tap Start Run on the Run tab, or connect Strava to bring your runs in.'}
        </p>
      </div>
    );
  }
  return (
    <ul className="list runs">
      {runs.map((run) => {
        const when = formatDateTime(run.started_at);
        const earned = xp.data?.get(run.id);
        const track = trackOfRun(run);
        const figures = figuresOfRun(run);
        return (
          <li key={run.id} className="run-row">
            <span className={track ? 'run-thumb' : 'run-thumb none'}>
              {track ? <RouteMap track={track} label="" variant="thumb" /> : <Icon name="run" size={22} />}
            </span>
            <div className="run-main">
              <Link to={`/runs/${encodeURIComponent(run.id)}`} className="run-link">
                <strong>{when.date}</strong>
              </Link>
              <span className="muted small">
                {when.time} <span className="source-badge">{sourceLabel(run.source)}</span>
              </span>
            </div>
            <div className="run-figures">
              <strong>{formatDistance(figures.distanceKm, unit)}</strong>
              <span className="muted small">
                {formatDuration(figures.durationSec)} · {formatPace(figures.paceSecPerKm, unit)}
              </span>
              {earned ? (
                <span className="run-xp small">
                  +{earned.xp} XP
                  {earned.surgeBonus ? (
                    <span className="surge-mark">
                      <Icon name="bolt" size={12} /> Surge Bonus
                    </span>
                  ) : null}
                </span>
              ) : null}
            </div>
            {onDelete ? (
              <button
                type="button"
                className="icon-button run-delete"
                aria-label="Delete run"
                onClick={() => onDelete(run.id)}
              >
                <Icon name="trash" size={18} />
              </button>
            ) : null}
            {run.notes || run.verification ? (
              <div className="run-extra">
                {run.notes ? <span className="muted small">{run.notes}</span> : null}
                <RunVerdict verification={run.verification} startedAt={run.started_at} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
