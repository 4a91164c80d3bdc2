import type { GpsPosition } from '../../../../../domain/run/geo.ts';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { Icon } from '../../../components/icon.tsx';
import type { Run } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { runTimeline } from '../../../../../domain/run/run-figures.ts';
import { figuresOfRun, type RunWithFigures } from '../track/figures-of-run.ts';
import { paceSeries } from '../track/pace-series.ts';
import { sourceLabel } from '../track/run-track.ts';
import { SPLIT_KM, splitsOf } from '../track/splits.ts';
import { PaceChart } from './pace-chart.tsx';
import { RouteMap } from './route-map.tsx';
import { SplitsTable } from './splits-table.tsx';

/**
 * A run's route map, splits and pace chart from its track; or, without a track, why there is none: a synced run
 * came without one, a GPS run's track was recorded on another device.
 */
export function RunTrackPanel({
  run,
  track,
  compact = false,
  headingLevel = 3,
}: {
  readonly run: Pick<Run, 'source'> & RunWithFigures;
  readonly track: readonly GpsPosition[] | null;
  /** The run-saved summary: the map and the splits, no chart. */
  readonly compact?: boolean;
  /** The level of the Splits and Pace headings under the screen's or the dialog's own. */
  readonly headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const unit = useDistanceUnit();
  if (!track || track.length < 2) {
    return (
      <div className="no-track">
        <Icon name="run" size={22} />
        <p>
          {run.source === 'gps' ? (
            <>
              <strong>No GPS track</strong>
              <span className="muted small">This run has no route to draw.</span>
            </>
          ) : (
            <>
              <strong>No GPS track: synced from {sourceLabel(run.source)}</strong>
              <span className="muted small">The distance and time come from {sourceLabel(run.source)}.</span>
            </>
          )}
        </p>
      </div>
    );
  }
  // The run's own distance and time laid along its track: the splits and the chart add up to the run's figures.
  const figures = figuresOfRun(run);
  const timeline = runTimeline(track, figures);
  const splits = splitsOf(timeline, SPLIT_KM[unit]);
  return (
    <div className="run-track">
      <RouteMap track={track} label={`Route map of this ${formatDistance(figures.distanceKm, unit)} run`} />
      <div className="route-legend" aria-hidden="true">
        <span>
          <span className="legend-dot start" /> Start
        </span>
        <span>
          <span className="legend-dot finish" /> Finish
        </span>
      </div>
      <section className="track-section" aria-label="Splits">
        <Heading>Splits</Heading>
        <SplitsTable splits={splits} unit={unit} />
      </section>
      {compact ? null : (
        <section className="track-section" aria-label="Pace">
          <Heading>Pace (/{unit})</Heading>
          <PaceChart series={paceSeries(timeline)} unit={unit} />
        </section>
      )}
    </div>
  );
}
