import { runXp } from '../../../../../domain/gamification/xp.ts';
import type { GpsPosition } from '../../../../../domain/run/geo.ts';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { Icon } from '../../../components/icon.tsx';
import { Modal } from '../../../components/modal.tsx';
import type { Goal, Run } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useRunXp } from '../api/get-run-xp.ts';
import { figuresOfRun } from '../track/figures-of-run.ts';
import { RunStats } from './run-stats.tsx';
import { RunTrackPanel } from './run-track-panel.tsx';
import { RunVerdict } from './run-verdict.tsx';

/**
 * The run-saved summary (§2): the distance big, then time, pace and the XP the run earned, each label above its
 * value; the route with its splits; what the run counts toward a stake; and a word when it completed the goal. The
 * XP is the awards' own figure once credited (a surge shows its bonus), until then what the run's distance earns.
 */
export function RunSavedSummary({
  run,
  goal,
  track,
  onClose,
}: {
  readonly run: Run;
  readonly goal: Goal | null;
  readonly track: readonly GpsPosition[];
  readonly onClose: () => void;
}) {
  const unit = useDistanceUnit();
  const credited = useRunXp([run.id]).data?.get(run.id);
  const xp = credited?.xp ?? runXp(run.verification?.xp_distance_km ?? run.distance_km).total;
  const when = formatDateTime(run.started_at);
  const figures = figuresOfRun(run);
  return (
    <Modal
      title="Run saved!"
      onClose={onClose}
      footer={
        <button type="button" className="button primary block large" onClick={onClose}>
          Done
        </button>
      }
    >
      <div className="summary-hero">
        <span className="muted small">
          {when.date} · {when.time}
        </span>
        <strong className="summary-distance">{formatDistance(figures.distanceKm, unit)}</strong>
      </div>
      <RunStats
        durationSec={figures.durationSec}
        paceSecPerKm={figures.paceSecPerKm}
        unit={unit}
        xp={xp}
        surgeBonus={credited?.surgeBonus ?? false}
      />
      {goal && goal.percentage >= 100 ? (
        <p className="summary-goal">
          <Icon name="trophy" size={20} /> This run completed your weekly goal!
        </p>
      ) : null}
      <p className="summary-verdict">
        <RunVerdict verification={run.verification} startedAt={run.started_at} />
      </p>
      <RunTrackPanel run={run} track={track} compact />
    </Modal>
  );
}
