import { formatDollars } from '../../../../../domain/shared/money.ts';
import type { Goal } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { useCharities } from '../api/get-charities.ts';
import { goalTitle, weekLabel } from './goal-text.ts';

/** Next week's goal (§2), which starts on Monday, with the charity its stake would support. */
export function UpcomingGoalCard({ goal, onCancel }: { readonly goal: Goal; readonly onCancel?: () => void }) {
  const unit = useDistanceUnit();
  const charities = useCharities(goal.charity_id !== null);
  const charity = goal.charity_id ? charities.data?.find((c) => c.id === goal.charity_id) : undefined;
  return (
    <section className="card upcoming-card" aria-label="Upcoming goal">
      <p className="eyebrow">Upcoming · starts Monday</p>
      <h2>{goalTitle(goal, unit)}</h2>
      <p className="muted small">{weekLabel(goal.period_start, goal.period_end)}</p>
      {charity ? <p className="small">Supporting {charity.name}</p> : null}
      <div className="goal-card-foot">
        <span className={goal.stake_amount_cents > 0 ? 'stake-chip' : 'stake-chip free'}>
          {goal.stake_amount_cents > 0 ? `${formatDollars(goal.stake_amount_cents)} at stake` : 'Free goal'}
        </span>
        {onCancel ? (
          <button type="button" className="button ghost small danger" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </section>
  );
}
