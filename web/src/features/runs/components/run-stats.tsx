import { Icon } from '../../../components/icon.tsx';
import type { DistanceUnit } from '../../../../../domain/shared/units.ts';
import { formatDuration, formatPace } from '../../../lib/format.ts';

/**
 * A run's time, pace and XP, each label above its value (the run-saved summary and the run detail view). `xp` null:
 * not known yet, shown as a dash.
 */
export function RunStats({
  durationSec,
  paceSecPerKm,
  unit,
  xp,
  surgeBonus,
}: {
  readonly durationSec: number;
  readonly paceSecPerKm: number | null;
  readonly unit: DistanceUnit;
  readonly xp: number | null;
  readonly surgeBonus: boolean;
}) {
  return (
    <dl className="summary-stats">
      <div>
        <dt>Time</dt>
        <dd>{formatDuration(durationSec)}</dd>
      </div>
      <div>
        <dt>Pace</dt>
        <dd>{formatPace(paceSecPerKm, unit)}</dd>
      </div>
      <div className="summary-xp">
        <dt>XP earned</dt>
        <dd>
          {xp === null ? '—' : `+${xp} XP`}
          {surgeBonus ? (
            <span className="surge-mark">
              <Icon name="bolt" size={12} /> Surge Bonus
            </span>
          ) : null}
        </dd>
      </div>
    </dl>
  );
}
