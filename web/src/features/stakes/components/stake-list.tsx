import { formatDollars } from '../../../../../domain/shared/money.ts';
import { useStakes } from '../api/get-stakes.ts';

/** The user's stakes with their §4 labels (Refunded, Forfeited, Active, Pending). */
export function StakeList() {
  const stakes = useStakes();
  const list = stakes.data ?? [];
  if (stakes.isPending) return <p className="muted">Loading…</p>;
  if (list.length === 0) return <p className="muted">No stakes yet. Add one to a goal to put money on the line.</p>;
  return (
    <ul className="list">
      {list.map((s) => (
        <li key={s.id} className="list-row">
          <span>
            <strong>{formatDollars(s.amount_cents)}</strong>
            <span className="muted small">
              Week of {s.week_start}
              {s.charity?.name ? ` · ${s.charity.name}` : ''}
            </span>
          </span>
          <span className={`status status-${s.label.toLowerCase()}`}>{s.label}</span>
        </li>
      ))}
    </ul>
  );
}
