import { formatDollars } from '../../../../../domain/shared/money.ts';
import { weekOf } from '../../../lib/format.ts';
import { useStakes } from '../api/get-stakes.ts';
import { stakeNotice } from '../stake-notice.ts';
import { HoldTimeline } from './hold-timeline.tsx';

/**
 * The user's stakes with their §4 labels (Refunded, Forfeited, Active, Pending; Not charged when every charge failed)
 * and, under a stake with a payment problem, what happened and what comes next; under each, its hold's timeline.
 */
export function StakeList({ timeZone }: { readonly timeZone: string }) {
  const stakes = useStakes();
  const list = stakes.data ?? [];
  if (stakes.isPending) return <p className="muted">Loading…</p>;
  if (list.length === 0) return <p className="muted">No stakes yet. Add one to a goal to put money on the line.</p>;
  return (
    <ul className="list" aria-label="Stakes">
      {list.map((s) => {
        const notice = stakeNotice(s, timeZone);
        return (
          <li key={s.id} className="list-row stake-row">
            <span>
              <strong>{formatDollars(s.amount_cents)}</strong>
              <span className="muted small">
                {weekOf(s.week_start)}
                {s.charity?.name ? ` · ${s.charity.name}` : ''}
              </span>
              {s.on_hold ? <span className="muted small">Held on your card until the goal is settled</span> : null}
              {notice ? <span className="stake-notice small">{notice}</span> : null}
              <HoldTimeline hold={s.hold} timeZone={timeZone} />
            </span>
            <span className={`status status-${s.label.toLowerCase().replaceAll(' ', '-')}`}>{s.label}</span>
          </li>
        );
      })}
    </ul>
  );
}
