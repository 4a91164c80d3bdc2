import { formatDistance } from '../../../../../domain/shared/units.ts';
import type { Run } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDateTime, formatDuration, formatPace } from '../../../lib/format.ts';
import { Icon } from '../../../components/icon.tsx';

const SOURCE_LABELS: Record<string, string> = { gps: 'GPS', strava: 'Strava', garmin: 'Garmin' };

/** Runs with date, time, source badge, distance, duration and pace (§2 run history); delete when given. */
export function RunList({
  runs,
  onDelete,
}: {
  readonly runs: readonly Run[];
  readonly onDelete?: (id: string) => void;
}) {
  const unit = useDistanceUnit();
  if (runs.length === 0) return <p className="muted">No runs yet. Start one above!</p>;
  return (
    <ul className="list runs">
      {runs.map((run) => {
        const when = formatDateTime(run.started_at);
        return (
          <li key={run.id} className="run-row">
            <div>
              <strong>{when.date}</strong>
              <span className="muted small">
                {when.time} <span className="source-badge">{SOURCE_LABELS[run.source] ?? run.source}</span>
              </span>
              {run.notes ? <span className="muted small">{run.notes}</span> : null}
            </div>
            <div className="run-figures">
              <strong>{formatDistance(run.distance_km, unit)}</strong>
              <span className="muted small">
                {formatDuration(run.duration_sec)} · {formatPace(run.pace_sec_per_km, unit)}
              </span>
            </div>
            {onDelete ? (
              <button type="button" className="icon-button" aria-label="Delete run" onClick={() => onDelete(run.id)}>
                <Icon name="trash" size={18} />
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
