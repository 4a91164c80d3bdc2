import { useParams } from 'react-router';
import { formatDistance } from '../../../../domain/shared/units.ts';
import { Icon } from '../../components/icon.tsx';
import { Page } from '../../components/page.tsx';
import { useRunXp } from '../../features/runs/api/get-run-xp.ts';
import { useRun } from '../../features/runs/api/get-run.ts';
import { RunStats } from '../../features/runs/components/run-stats.tsx';
import { RunTrackPanel } from '../../features/runs/components/run-track-panel.tsx';
import { RunVerdict } from '../../features/runs/components/run-verdict.tsx';
import { ExportRunButtons } from '../../features/runs/components/export-run-buttons.tsx';
import { recordedWithText } from '../../features/runs/components/import-run-file.tsx';
import { figuresOfRun } from '../../features/runs/track/figures-of-run.ts';
import { sourceLabel, trackOfRun } from '../../features/runs/track/run-track.ts';
import { ApiError } from '../../lib/api-error.ts';
import { useDistanceUnit } from '../../lib/distance-unit.ts';
import { formatDateTime } from '../../lib/format.ts';

/**
 * One run (/runs/{id}, from the run history): its figures and XP, the route map, the splits and the pace chart,
 * or why it has no track (GET /runs/{id} sends the run with its track).
 */
export function RunDetailRoute() {
  const { id = '' } = useParams();
  const unit = useDistanceUnit();
  const runs = useRun(id);
  const run = runs.data ?? null;
  const earned = useRunXp(run ? [run.id] : []).data?.get(id);
  if (runs.isPending) {
    return (
      <Page title="Run" back="/run-history">
        <section className="card skeleton" aria-busy="true" />
      </Page>
    );
  }
  if (!run) {
    return (
      <Page title="Run not found" back="/run-history">
        <section className="card empty-card">
          <span className="empty-icon">
            <Icon name="run" size={24} />
          </span>
          <p>
            {runs.error instanceof ApiError && runs.error.status === 404
              ? 'This run is not in your history.'
              : 'This run could not be loaded. Check your connection.'}
          </p>
        </section>
      </Page>
    );
  }
  const when = formatDateTime(run.started_at);
  const figures = figuresOfRun(run);
  return (
    <Page title={when.date} back="/run-history" documentTitle="Run">
      <section className="card run-detail-head">
        <span className="muted small">
          {when.time} <span className="source-badge">{sourceLabel(run.source)}</span>
        </span>
        <strong className="summary-distance">{formatDistance(figures.distanceKm, unit)}</strong>
        <RunStats
          durationSec={figures.durationSec}
          paceSecPerKm={figures.paceSecPerKm}
          unit={unit}
          xp={earned?.xp ?? null}
          surgeBonus={earned?.surgeBonus ?? false}
        />
        {run.notes ? <p className="muted">{run.notes}</p> : null}
        <RunVerdict verification={run.verification} startedAt={run.started_at} />
        {run.recorded_with ? <p className="muted small">Imported from {recordedWithText(run.recorded_with)}</p> : null}
        {run.gps_data ? <ExportRunButtons runId={run.id} startedAt={run.started_at} /> : null}
      </section>
      <section className="card" aria-label="Route">
        <RunTrackPanel run={run} track={trackOfRun(run)} headingLevel={2} />
      </section>
    </Page>
  );
}
